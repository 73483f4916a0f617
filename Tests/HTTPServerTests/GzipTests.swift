@testable import HTTPServer
import Testing

/// gzip through zlib and the negotiation rules around it.
@Suite struct GzipTests {
    @Test func roundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let text = Array(String(repeating: "background app refresh ", count: 4000).utf8)
        for input in [[], [42], random, text] {
            let compressed = try #require(Gzip.compress(input))
            #expect(compressed.starts(with: [0x1F, 0x8B]))  // RFC 1952 §2.3.1
            #expect(Gzip.decompress(compressed) == input)
        }
        #expect(try #require(Gzip.compress(text)).count < text.count / 20)
    }

    @Test func decompressRejectsGarbageAndTruncation() throws {
        #expect(Gzip.decompress(Array("not gzip at all".utf8)) == nil)
        let compressed = try #require(Gzip.compress(Array(String(repeating: "abc", count: 1000).utf8)))
        #expect(Gzip.decompress(Array(compressed.dropLast(10))) == nil)
        #expect(Gzip.decompress([]) == nil)
    }

    @Test func concatenatedMembersDecompressToTheirConcatenation() throws {
        let first = try #require(Gzip.compress(Array("one ".utf8)))
        let second = try #require(Gzip.compress(Array("two".utf8)))
        #expect(Gzip.decompress(first + second) == Array("one two".utf8))
    }

    @Test("Accept-Encoding negotiation", arguments: [
        ("gzip", true), ("GZIP", true), ("x-gzip", true), ("gzip, deflate, br", true), ("*", true),
        ("gzip;q=0", false), ("gzip; q=0.000", false), ("deflate", false), ("", false), ("identity", false),
        ("*;q=0", false), ("gzip;q=0.5, identity", false), ("gzip;q=0.5, identity;q=0.5", true),
        ("identity;q=0, *", true), ("br, *;q=0.1", true), ("gzip;q=1.0", true), ("gzip;q=2", false),
        ("gzip;q=abc", false), ("gzip ; q=0.8 , identity;q=0.1", true),
    ])
    func negotiation(acceptEncoding: String, accepts: Bool) {
        #expect(ContentCoding.acceptsGzip(acceptEncoding) == accepts)
    }

    @Test("compressible media types", arguments: [
        ("text/plain; charset=utf-8", true), ("text/html", true), ("application/json", true),
        ("application/problem+json", true), ("application/xml", true), ("application/atom+xml", true),
        ("application/javascript", true), ("application/x-yaml", true), ("application/yaml", true),
        ("image/svg+xml", true), ("TEXT/CSS", true), ("image/png", false), ("application/octet-stream", false),
        ("application/zip", false), ("video/mp4", false), ("nonsense", false),
    ])
    func compressible(contentType: String, compressible: Bool) {
        #expect(ContentCoding.isCompressible(contentType: contentType) == compressible)
    }
}
