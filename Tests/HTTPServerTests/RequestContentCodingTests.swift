import HTTPServer
import Testing

/// `Content-Encoding` on a request body (RFC 9110 §8.4): gzip is decoded before the handler runs, bounded by
/// the body limit once decoded; identity is no coding; any other coding is `415`.
@Suite struct RequestContentCodingTests {
    /// Echoes the body the handler got, and whether it still saw a `Content-Encoding` field.
    static let echo: @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse = { request, _ in
        HTTPResponse(
            status: .ok, contentType: "application/octet-stream", bytes: request.body,
            headers: ["X-Saw-Content-Encoding": request.headers["Content-Encoding"] ?? "none"])
    }

    private static let json = Array(#"{"name":"Test iPhone","model":"iPhone15,2","conditions":{"lowPowerMode":false}}"#.utf8)

    private func post(_ body: [UInt8], coding: String, chunked: Bool = false) throws -> HTTPTestResponse {
        let server = try CoreTestServer(responder: Self.echo)
        defer { server.stop() }
        let client = try server.client()
        var head = "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Encoding: \(coding)\r\n"
        if chunked {
            head += "Transfer-Encoding: chunked\r\n\r\n"
            try client.send(Array(head.utf8) + Array(String(body.count, radix: 16).utf8) + [13, 10] + body + Array("\r\n0\r\n\r\n".utf8))
        } else {
            try client.send(Array((head + "Content-Length: \(body.count)\r\n\r\n").utf8) + body)
        }
        return try client.readResponse()
    }

    @Test(arguments: ["gzip", "x-gzip", "GZIP", "identity, gzip"])
    func gzippedBodyIsDecodedForTheHandler(coding: String) throws {
        let response = try post(try #require(Gzip.compress(Self.json)), coding: coding)
        #expect(response.status == 200)
        #expect(response.body == Self.json)
        #expect(response.header("X-Saw-Content-Encoding") == "none")
    }

    @Test func chunkedGzippedBodyOfSeveralMembersIsDecoded() throws {
        let first = try #require(Gzip.compress(Array(Self.json[..<10])))
        let second = try #require(Gzip.compress(Array(Self.json[10...])))
        let response = try post(first + second, coding: "gzip", chunked: true)
        #expect(response.status == 200)
        #expect(response.body == Self.json)
    }

    @Test func identityIsNoCoding() throws {
        let response = try post(Self.json, coding: "identity")
        #expect(response.status == 200)
        #expect(response.body == Self.json)
    }

    @Test func gzipBombIs413() throws {
        // 10 MiB of zeros gzip to about 10 KiB: well under the 1 MiB body limit, far over it once decoded.
        let bomb = try #require(Gzip.compress([UInt8](repeating: 0, count: 10 << 20)))
        #expect(bomb.count < 1 << 20)
        let response = try post(bomb, coding: "gzip")
        #expect(response.status == 413)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("Connection") == "close")
    }

    @Test func malformedGzipIs400() throws {
        let response = try post(Self.json, coding: "gzip")
        #expect(response.status == 400)
        #expect(response.text.contains("not valid gzip"))
    }

    @Test("a coding other than gzip or identity is 415", arguments: ["br", "deflate", "compress", "zstd", "gzip, br", "gzip, gzip"])
    func otherCodingIs415(coding: String) throws {
        let response = try post(Self.json, coding: coding)
        #expect(response.status == 415)
        #expect(response.header("Accept-Encoding") == "gzip")
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.header("Connection") == "close")
    }

    @Test func unsupportedCodingIsAnsweredBeforeTheBody() throws {
        let server = try CoreTestServer(responder: Self.echo)
        defer { server.stop() }
        let client = try server.client(timeout: .seconds(2))
        try client.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Encoding: br\r\nContent-Length: 100000\r\n\r\nxyz")
        #expect(try client.readResponse().status == 415)
    }

    @Test func codingOfARequestWithoutBodyIsIgnored() throws {
        let server = try CoreTestServer(responder: Self.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.request("GET", "/", headers: [("Content-Encoding", "br")])
        #expect(try client.readResponse().status == 200)
    }
}
