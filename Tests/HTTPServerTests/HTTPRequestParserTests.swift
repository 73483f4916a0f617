import Glibc
import HTTPServer
import Testing

/// The request parser, exercised over a live loopback server with raw bytes.
@Suite struct HTTPRequestParserTests {
    /// Sends `raw` on a fresh connection and returns the one answer and whether the server then closed.
    private func exchange(
        _ raw: String, configure: (inout HTTPServerConfiguration) -> Void = { _ in }
    ) throws -> (response: HTTPTestResponse, closed: Bool) {
        let server = try CoreTestServer(configure: configure, responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.send(raw)
        let response = try client.readResponse()
        return (response, client.isClosedByServer())
    }

    /// Expects `raw` to be refused with `status` as a problem document, then the connection closed.
    private func expectRejected(
        _ raw: String, _ status: Int, configure: (inout HTTPServerConfiguration) -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (response, closed) = try exchange(raw, configure: configure)
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
        #expect(response.header("Connection") == "close", sourceLocation: sourceLocation)
        #expect(response.header("X-Request-Id") != nil, sourceLocation: sourceLocation)
        #expect(response.text.contains("\"status\":\(status)"), sourceLocation: sourceLocation)
        #expect(closed, "the server should close after refusing", sourceLocation: sourceLocation)
    }

    @Test("malformed request lines are 400", arguments: [
        "GARBAGE\r\n\r\n",
        "GET /\r\nHost: a\r\n\r\n",
        "GET  / HTTP/1.1\r\nHost: a\r\n\r\n",
        "G(T / HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET / HTTQ/1.1\r\nHost: a\r\n\r\n",
        "GET noslash HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /a\u{7F}b HTTP/1.1\r\nHost: a\r\n\r\n",
    ])
    func malformedRequestLine(raw: String) throws {
        try expectRejected(raw, 400)
    }

    @Test("malformed header fields are 400", arguments: [
        "GET / HTTP/1.1\r\nHost: a\r\nX-Folded: one\r\n two\r\n\r\n",  // obs-fold
        "GET / HTTP/1.1\r\nHost: a\r\nX-Space : v\r\n\r\n",  // whitespace before colon
        "GET / HTTP/1.1\r\nHost: a\r\nX(Bad): v\r\n\r\n",  // bad token char
        "GET / HTTP/1.1\r\nHost: a\r\nX-Cr: a\rb\r\n\r\n",  // bare CR
        "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\n: empty\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nX-Nul: a\u{0}b\r\n\r\n",
    ])
    func malformedHeaderField(raw: String) throws {
        try expectRejected(raw, 400)
    }

    @Test func missingHostInHTTP11Is400() throws {
        try expectRejected("GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", 400)
        try expectRejected("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400)
    }

    @Test("request smuggling shapes are 400 (RFC 9112 §6.3)", arguments: [
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3, 4\r\n\r\nabcd",
        "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n",
        "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ])
    func smuggling(raw: String) throws {
        try expectRejected(raw, 400)
    }

    /// A chunk-size line longer than 1 KiB is refused however its bytes arrive: in one read, as in many. (Found by
    /// the fuzzer in Tests/Fuzz: the limit was checked only while the line's LF had not arrived yet.)
    @Test func overlongChunkLineIs400InOneReadOrMany() throws {
        let head = "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        let line = "2;" + String(repeating: "e", count: 1100) + "\r\n"
        try expectRejected(head + line + "ab\r\n0\r\n\r\n", 400)

        let server = try CoreTestServer(responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.send(head)
        let bytes = Array(line.utf8)
        for start in stride(from: 0, to: bytes.count, by: 100) {
            try client.send(Array(bytes[start..<min(start + 100, bytes.count)]))
            usleep(5_000)  // let each piece arrive in its own read (a slow client; merged pieces pass too)
        }
        try client.send("ab\r\n0\r\n\r\n")
        #expect(try client.readResponse().status == 400)
        #expect(client.isClosedByServer())
    }

    @Test("strict framing: a bare LF in the head or a chunk line, or whitespace after a chunk size, is 400 (RFC 9112 §2.2, §7.1)", arguments: [
        "GET / HTTP/1.1\nHost: a\n\n",  // every line ends in a bare LF
        "GET / HTTP/1.1\r\nHost: a\nX-Other: b\r\n\r\n",  // one header line ends in a bare LF
        "GET / HTTP/1.1\r\nHost: a\r\n\n",  // the empty line ending the head is a bare LF
        "\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",  // a bare-LF empty line before the request line
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\nab\r\n0\r\n\r\n",  // LF-only chunk-size line
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\n0\r\n\r\n",  // LF after chunk data
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\n\r\n",  // LF-only last-chunk line
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\n",  // trailer section ends in LF
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2 \r\nab\r\n0\r\n\r\n",  // space after the size
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\t\r\nab\r\n0\r\n\r\n",  // tab after the size
        "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2 ;x=1\r\nab\r\n0\r\n\r\n",  // space before `;`
    ])
    func strictFraming(raw: String) throws {
        try expectRejected(raw, 400)
    }

    @Test func chunkExtensionsAfterTheSizeAreAccepted() throws {
        let (response, _) = try exchange(
            "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "2;name=value\r\nab\r\n1;flag\r\nc\r\n0\r\n\r\n")
        #expect(response.status == 200)
        #expect(response.text == "abc")
    }

    @Test func identicalContentLengthsAreOneLength() throws {
        let (response, closed) = try exchange(
            "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
        #expect(response.status == 200)
        #expect(response.text == "abc")
        #expect(closed)
    }

    @Test func oversizedHeadIs431() throws {
        let big = String(repeating: "x", count: 3000)
        try expectRejected("GET / HTTP/1.1\r\nHost: a\r\nX-Big: \(big)\r\n\r\n", 431) { $0.maxHeaderSize = 2048 }
        // Also when the head never ends: the server does not wait for the rest.
        try expectRejected("GET / HTTP/1.1\r\nHost: a\r\nX-Big: \(big)", 431) { $0.maxHeaderSize = 2048 }
    }

    @Test func overlongTargetIs414() throws {
        let target = "/" + String(repeating: "a", count: 5000)
        let (response, closed) = try exchange("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n") { $0.maxHeaderSize = 4096 }
        #expect(response.status == 414 || response.status == 431)
        #expect(closed)
    }

    @Test func oversizedBodyIs413() throws {
        let configure: (inout HTTPServerConfiguration) -> Void = { $0.maxBodySize = 10 }
        try expectRejected("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n01234567890", 413, configure: configure)
        try expectRejected(
            "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n012345\r\n6\r\n012345\r\n0\r\n\r\n", 413,
            configure: configure)
        try expectRejected("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413)
    }

    @Test func aRouteMayAllowALargerBody() throws {
        let configure: (inout HTTPServerConfiguration) -> Void = {
            $0.maxBodySize = 10
            $0.bodySizeLimit = { method, path in method == .post && path == "/echo" ? 20 : nil }
        }
        // The upload route takes 20 bytes, fixed or chunked; its query does not change the route.
        let fixed = try exchange("POST /echo?x=1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\nContent-Length: 15\r\n\r\n012345678901234",
                                 configure: configure)
        #expect(fixed.response.status == 200)
        #expect(fixed.response.text.contains("012345678901234"))
        let chunked = try exchange(
            "POST /echo HTTP/1.1\r\nHost: a\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "8\r\n01234567\r\n8\r\n01234567\r\n0\r\n\r\n",
            configure: configure)
        #expect(chunked.response.status == 200)
        // Past its own limit, and on any other path past the general one, a body is still 413.
        try expectRejected(
            "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 21\r\n\r\n012345678901234567890", 413, configure: configure)
        try expectRejected(
            "POST /other HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n01234567890", 413, configure: configure)
    }

    @Test func unknownMethodIs501() throws {
        try expectRejected("BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n", 501)
    }

    @Test func unsupportedVersionIs505() throws {
        try expectRejected("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505)
        try expectRejected("GET / HTTP/1.2\r\nHost: a\r\n\r\n", 505)
    }

    @Test func unknownExpectationIs417() throws {
        try expectRejected("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: tea\r\nContent-Length: 1\r\n\r\nx", 417)
    }

    @Test func problemEchoesTheClientRequestId() throws {
        let (response, _) = try exchange("GET / HTTP/1.1\r\nX-Request-Id: abc-123\r\n\r\n")
        #expect(response.status == 400)
        #expect(response.header("X-Request-Id") == "abc-123")
    }

    @Test func chunkedBodySplitAcrossReads() throws {
        let server = try CoreTestServer(responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        let pieces = [
            "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Enc", "oding: chunked\r\n\r\n", "5\r\nhel", "lo\r\n", "7;ext=1\r",
            "\n, world\r\n", "0\r\n", "X-Trailer: ignored\r\n", "\r\n",
        ]
        for piece in pieces {
            try client.send(piece)
            usleep(20_000)  // let each piece arrive in its own read (a slow client; merged pieces pass too)
        }
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "hello, world")
        // Keep-alive: the connection serves another request.
        try client.request("GET", "/again")
        #expect(try client.readResponse().header("X-Target") == "/again")
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try CoreTestServer(responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.send(
            "GET /1 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\ntwo"
                + "GET /3 HTTP/1.1\r\nHost: a\r\n\r\n")
        let first = try client.readResponse()
        let second = try client.readResponse()
        let third = try client.readResponse()
        #expect(first.header("X-Target") == "/1")
        #expect(second.text == "two")
        #expect(third.header("X-Target") == "/3")
        #expect(Set([first, second, third].compactMap { $0.header("X-Request-Id") }).count == 3)
    }

    @Test func expectContinueGetsInterimResponse() throws {
        let server = try CoreTestServer(responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        let interim = try client.readHead()
        #expect(interim.status == 100)
        try client.send("body")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "body")
    }

    @Test func expectContinueWithTooLargeBodyIs413WithoutContinue() throws {
        let server = try CoreTestServer(configure: { $0.maxBodySize = 100 }, responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 1000\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(client.isClosedByServer())
    }

    @Test func headHasGetsFieldsWithoutBody() throws {
        let server = try CoreTestServer(responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.request("HEAD", "/thing")
        let head = try client.readResponse(noBody: true)
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "2")
        #expect(head.header("X-Method") == "HEAD")
        // Had a body been sent, it would be read as the next status line.
        try client.request("GET", "/thing")
        let get = try client.readResponse()
        #expect(get.text == "ok")
        #expect(get.header("Content-Length") == head.header("Content-Length"))
    }

    @Test func http10ClosesByDefault() throws {
        let (response, closed) = try exchange("GET /old HTTP/1.0\r\n\r\n")
        #expect(response.status == 200)
        #expect(response.header("Connection") == "close")
        #expect(closed)
    }

    @Test func http10KeepAliveWhenAsked() throws {
        let server = try CoreTestServer(responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let first = try client.readResponse()
        #expect(first.header("Connection")?.lowercased() == "keep-alive")
        try client.send("GET /b HTTP/1.0\r\n\r\n")
        let second = try client.readResponse()
        #expect(second.header("X-Target") == "/b")
        #expect(client.isClosedByServer())
    }

    @Test func keepAliveConnectionIsReused() throws {
        let server = try CoreTestServer(responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        for index in 0..<5 {
            try client.request("POST", "/echo", body: Array("n\(index)".utf8))
            let response = try client.readResponse()
            #expect(response.text == "n\(index)")
            #expect(response.header("Connection") == nil)
        }
    }

    @Test func connectionCloseIsHonoured() throws {
        let (response, closed) = try exchange("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(response.status == 200)
        #expect(response.header("Connection") == "close")
        #expect(closed)
    }

    @Test func leadingEmptyLinesAndAbsoluteFormAreAccepted() throws {
        let (response, _) = try exchange("\r\n\r\nGET http://example.com/p?q=1 HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
        #expect(response.status == 200)
        #expect(response.header("X-Target") == "/p?q=1")
    }

    @Test func halfClosedClientStillGetsItsAnswer() throws {
        let server = try CoreTestServer(responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.request("GET", "/last")
        client.shutdownWrite()
        let response = try client.readResponse()
        #expect(response.header("X-Target") == "/last")
        #expect(client.isClosedByServer())
    }
}
