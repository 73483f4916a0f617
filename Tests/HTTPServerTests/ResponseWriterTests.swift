@testable import HTTPServer
import Testing

/// The response head serializer and its helpers.
@Suite struct ResponseWriterTests {
    private let date = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)

    private func head(
        status: HTTPStatus = .ok, headers: HTTPHeaders = [:], framing: ResponseHead.Framing = .length(2),
        keepAlive: Bool = true, version: HTTPVersion = .http1_1
    ) -> (text: String, keepAlive: Bool) {
        var out: [UInt8] = []
        let stays = ResponseHead.write(
            into: &out, status: status, headers: headers, framing: framing, keepAlive: keepAlive, version: version,
            date: date, requestId: "rid-1")
        return (String(decoding: out, as: UTF8.self), stays)
    }

    @Test func sizedResponseHeadIsExact() {
        let (text, stays) = head(headers: ["Content-Type": "text/plain"])
        #expect(text == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            + "Content-Length: 2\r\nX-Request-Id: rid-1\r\n\r\n")
        #expect(stays)
    }

    @Test func connectionFieldFollowsPersistence() {
        #expect(head(keepAlive: false).text.contains("\r\nConnection: close\r\n"))
        #expect(!head(keepAlive: false).keepAlive)
        #expect(head(version: .http1_0).text.contains("\r\nConnection: keep-alive\r\n"))
        let closing = head(headers: ["Connection": "Close"])
        #expect(!closing.keepAlive)
        #expect(closing.text.ranges(of: "Connection:").count == 1)
        #expect(!head(framing: .closeDelimited).keepAlive)
    }

    @Test func serverOwnedFieldsReplaceTheResponders() {
        let (text, _) = head(headers: [
            "Content-Length": "999", "Transfer-Encoding": "gzip", "X-Request-Id": "spoofed", "Date": "yesterday",
        ])
        #expect(!text.contains("999") && !text.contains("gzip") && !text.contains("spoofed"))
        #expect(text.contains("Date: yesterday\r\n"))
        #expect(!text.contains("1994"))
    }

    @Test func framingFields() {
        #expect(head(framing: .chunked).text.contains("Transfer-Encoding: chunked\r\n"))
        #expect(!head(status: .noContent, framing: .none).text.contains("Content-Length"))
        #expect(head(status: HTTPStatus(code: 299)).text.hasPrefix("HTTP/1.1 299 Status 299\r\n"))
    }

    @Test func headerInjectionIsDefused() {
        let (text, _) = head(headers: HTTPHeaders([
            (name: "X-Evil", value: "a\r\nSet-Cookie: pwned"), (name: "Bad Name", value: "v"), (name: "", value: "v"),
        ]))
        #expect(text.contains("X-Evil: a  Set-Cookie: pwned\r\n"))
        #expect(!text.contains("Bad Name"))
        #expect(!text.contains("\r\n: v"))
    }

    @Test func imfFixdate() {
        #expect(String(decoding: DateCache.format(784_111_777), as: UTF8.self) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(String(decoding: DateCache.format(0), as: UTF8.self) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(String(decoding: DateCache.format(1_709_164_800), as: UTF8.self) == "Thu, 29 Feb 2024 00:00:00 GMT")
        var cache = DateCache()
        cache.update(now: 0)
        #expect(cache.value.count == 29)
    }

    @Test func numberFormatting() {
        for value in [0, 7, 10, 99, 1024, 65_535, 1 << 40, Int.max] {
            var decimal: [UInt8] = []
            decimal.appendDecimal(value)
            #expect(String(decoding: decimal, as: UTF8.self) == String(value))
            var hex: [UInt8] = []
            hex.appendHex(value)
            #expect(String(decoding: hex, as: UTF8.self) == String(value, radix: 16))
        }
    }

    @Test func requestIdsAreUniqueAndSmall() {
        var generator = RequestIdGenerator(loopIndex: 3)
        let ids = (0..<1000).map { _ in generator.next() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.utf8.count <= 15)
            #expect(id.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
            #expect(id.split(separator: "-").count == 3)
        }
        var other = RequestIdGenerator(loopIndex: 4)
        #expect(other.next() != RequestIdGenerator(loopIndex: 3).nextCopy())
    }

    @Test func listMembership() {
        #expect("keep-alive, Close".listContains("close"))
        #expect(!"closed".listContains("close"))
        #expect("Origin, accept-encoding;x=1".listContains("accept-encoding"))
    }
}

extension RequestIdGenerator {
    /// The first id of a fresh copy.
    fileprivate func nextCopy() -> String {
        var copy = self
        return copy.next()
    }
}
