import Dispatch
import Glibc
import HTTPServer
import Synchronization
import Testing

/// The server over live loopback connections: headers it adds, compression, errors, streams, timeouts,
/// shutdown and several loops.
@Suite struct HTTPServerTests {
    private static let largeText = Array(String(repeating: "{\"event\":\"background fetch\",\"ok\":true}\n", count: 200).utf8)

    private static func contentServer() throws -> CoreTestServer {
        try CoreTestServer { request, _ in
            switch request.path {
            case "/json": HTTPResponse(contentType: "application/json", bytes: largeText)
            case "/png": HTTPResponse(contentType: "image/png", bytes: largeText)
            case "/small": HTTPResponse(contentType: "text/plain", bytes: Array("tiny".utf8))
            case "/encoded": HTTPResponse(contentType: "text/plain", bytes: largeText, headers: ["Content-Encoding": "br"])
            default: HTTPResponse(status: .notFound)
            }
        }
    }

    @Test func gzipWhenAccepted() throws {
        let server = try Self.contentServer()
        defer { server.stop() }
        let client = try server.client()
        for acceptEncoding in ["gzip", "deflate, gzip;q=0.8", "*", "br;q=1.0, gzip;q=0.5, identity;q=0.1"] {
            try client.request("GET", "/json", headers: [("Accept-Encoding", acceptEncoding)])
            let response = try client.readResponse()
            #expect(response.header("Content-Encoding") == "gzip", "\(acceptEncoding)")
            #expect(response.header("Vary") == "Accept-Encoding")
            #expect(response.header("Content-Length") == String(response.body.count))
            #expect(response.body.count < Self.largeText.count)
            #expect(Gzip.decompress(response.body) == Self.largeText)
        }
    }

    @Test func noGzipWhenNotAcceptedOrNotWorthIt() throws {
        let server = try Self.contentServer()
        defer { server.stop() }
        let client = try server.client()
        let cases: [(String, String?, Bool)] = [
            ("/json", nil, true), ("/json", "gzip;q=0", true), ("/json", "identity", true),
            ("/json", "gzip;q=0.5, identity", true), ("/json", "*;q=0", true),
            ("/png", "gzip", false), ("/small", "gzip", false), ("/encoded", "gzip", false),
        ]
        for (path, acceptEncoding, varies) in cases {
            try client.request("GET", path, headers: acceptEncoding.map { [("Accept-Encoding", $0)] } ?? [])
            let response = try client.readResponse()
            #expect(response.header("Content-Encoding") != "gzip", "\(path) \(acceptEncoding ?? "-")")
            #expect((response.header("Vary") == "Accept-Encoding") == varies, "\(path) \(acceptEncoding ?? "-")")
            #expect(response.header("Content-Length") == String(response.body.count))
        }
    }

    @Test func dateAndContentLengthOnEveryResponse() throws {
        let server = try Self.contentServer()
        defer { server.stop() }
        let client = try server.client()
        for path in ["/small", "/missing"] {
            try client.request("GET", path)
            let response = try client.readResponse()
            let date = try #require(response.header("Date"))
            #expect(date.count == 29 && date.hasSuffix(" GMT") && date.dropFirst(3).hasPrefix(", "), "\(date)")
            #expect(response.header("Content-Length") == String(response.body.count))
        }
    }

    @Test func requestIdIsEchoedOrGenerated() throws {
        let server = try CoreTestServer(responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.request("GET", "/", headers: [("X-Request-Id", "client-id-42")])
        let echoed = try client.readResponse()
        #expect(echoed.header("X-Request-Id") == "client-id-42")
        #expect(echoed.header("X-Context-Id") == "client-id-42")

        var generated: [String] = []
        for invalid in [nil, String(repeating: "a", count: 129), "has space", "ünïcode"] {
            try client.request("GET", "/", headers: invalid.map { [("X-Request-Id", $0)] } ?? [])
            let response = try client.readResponse()
            let id = try #require(response.headers("X-Request-Id").first)
            #expect(response.headers("X-Request-Id").count == 1)
            #expect(id != invalid && !id.isEmpty && id.count <= 128)
            #expect(response.header("X-Context-Id") == id)
            generated.append(id)
        }
        #expect(Set(generated).count == generated.count)
    }

    private struct Secret: Error { let detail = "db password is hunter2" }

    @Test func plainErrorBecomesGeneric500() throws {
        let server = try CoreTestServer { _, _ in throw Secret() }
        defer { server.stop() }
        let client = try server.client()
        try client.request("GET", "/")
        let response = try client.readResponse()
        #expect(response.status == 500)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(response.text.contains("An internal error occurred."))
        #expect(!response.text.contains("hunter2"))
        #expect(response.header("X-Request-Id") != nil)
    }

    @Test func thrownProblemKeepsItsStatus() throws {
        let server = try CoreTestServer { _, _ in
            throw HTTPProblem(status: .conflict, code: "alreadyExists", detail: "That device exists.", headers: ["Retry-After": "3"])
        }
        defer { server.stop() }
        let client = try server.client()
        try client.request("POST", "/", body: Array("{}".utf8))
        let response = try client.readResponse()
        #expect(response.status == 409)
        #expect(response.header("Retry-After") == "3")
        #expect(response.text.contains("That device exists."))
        // A handled error does not end the connection.
        try client.request("GET", "/")
        #expect(try client.readResponse().status == 409)
    }

    @Test func streamChunksArriveAsWrittenAndFinishEndsTheBody() throws {
        let probe = CoreTestProbe()
        let server = try CoreTestServer { _, _ in
            HTTPResponse(status: .ok, headers: ["Content-Type": "text/event-stream"], body: probe.stream())
        }
        defer { server.stop() }
        let client = try server.client()
        try client.request("GET", "/events")
        let head = try client.readHead()
        #expect(head.status == 200)
        #expect(head.header("Transfer-Encoding") == "chunked")
        #expect(head.header("Content-Length") == nil)
        let writer = try #require(probe.writer())
        for message in ["data: one\n\n", "data: two\n\n", String(repeating: "x", count: 100_000)] {
            #expect(writer.write(Array(message.utf8)))
            var received: [UInt8] = []
            while received.count < message.utf8.count, let chunk = try client.readChunk() { received += chunk }
            #expect(received == Array(message.utf8))
        }
        #expect(probe.closeCount == 0)
        writer.finish()
        #expect(try client.readChunk() == nil)
        #expect(client.isClosedByServer())
        #expect(probe.closeCount == 1)
        #expect(!writer.isOpen)
        #expect(!writer.write([1]))
        // A handler registered after the end runs at once.
        writer.onClose { probe.flag.store(true, ordering: .sequentiallyConsistent) }
        let ranAtOnce = probe.flag.load(ordering: .sequentiallyConsistent)
        #expect(ranAtOnce)
        #expect(probe.closeCount == 1)
    }

    @Test func streamToHTTP10IsCloseDelimited() throws {
        let probe = CoreTestProbe()
        let server = try CoreTestServer { _, _ in HTTPResponse(body: probe.stream()) }
        defer { server.stop() }
        let client = try server.client()
        try client.send("GET /events HTTP/1.0\r\n\r\n")
        let head = try client.readHead()
        #expect(head.header("Transfer-Encoding") == nil)
        #expect(head.header("Connection") == "close")
        let writer = try #require(probe.writer())
        writer.write(Array("abc".utf8))
        writer.write(Array("def".utf8))
        writer.finish()
        #expect(try client.readUntilClose() == Array("abcdef".utf8))
    }

    @Test func clientDisconnectRunsOnClose() throws {
        let probe = CoreTestProbe()
        let server = try CoreTestServer { _, _ in HTTPResponse(body: probe.stream()) }
        defer { server.stop() }
        var client: HTTPTestConnection? = try server.client()
        try client?.request("GET", "/events")
        _ = try client?.readHead()
        let writer = try #require(probe.writer())
        client = nil  // closes the socket
        #expect(coreWaitUntil { probe.closeCount == 1 })
        #expect(!writer.isOpen)
        #expect(!writer.write(Array("late".utf8)))
        #expect(probe.closeCount == 1)
    }

    @Test func overflowingStreamIsClosed() throws {
        let probe = CoreTestProbe()
        let server = try CoreTestServer(configure: { $0.maxStreamBacklog = 16 * 1024 }) { _, _ in HTTPResponse(body: probe.stream()) }
        defer { server.stop() }
        let client = try server.client(receiveBufferSize: 4096)
        try client.request("GET", "/events")
        _ = try client.readHead()
        let writer = try #require(probe.writer())
        let block = [UInt8](repeating: 120, count: 4096)
        var writes = 0
        while writer.write(block), writes < 100_000 { writes += 1 }
        #expect(writes < 100_000, "a client that does not read must overflow the stream")
        #expect(!writer.isOpen)
        #expect(coreWaitUntil { probe.closeCount == 1 })
        // The connection is dropped: the client reaches the end after what was already sent.
        #expect(throws: Never.self) { _ = try client.readUntilClose() }
    }

    @Test func slowHeadIsAnswered408() throws {
        let server = try CoreTestServer(configure: { $0.headerReadTimeout = .seconds(1) }, responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.send("GET / HTTP/1.1\r\nHost: a\r\n")
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByServer())
        // A connection that never sends a byte is closed without an answer.
        let silent = try server.client()
        #expect(silent.isClosedByServer())
    }

    @Test func idleKeepAliveConnectionIsClosedSilently() throws {
        let server = try CoreTestServer(configure: { $0.idleTimeout = .seconds(1) }, responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.request("GET", "/")
        #expect(try client.readResponse().status == 200)
        let start = ContinuousClock.now
        #expect(client.isClosedByServer())
        #expect(ContinuousClock.now - start >= .milliseconds(500))
    }

    @Test func gracefulShutdownAnswersInFlightAndEndsStreams() throws {
        let probe = CoreTestProbe()
        // `/slow` is in flight when the shutdown begins: it is answered only once the test has begun it.
        let release = DispatchSemaphore(value: 0)
        let server = try CoreTestServer { request, _ in
            if request.path == "/events" { return HTTPResponse(body: probe.stream()) }
            probe.flag.store(true, ordering: .sequentiallyConsistent)
            if request.path == "/slow" { _ = release.wait(timeout: .now() + 30) }
            return .text("slow done")
        }
        let streaming = try server.client()
        try streaming.request("GET", "/events")
        _ = try streaming.readHead()
        _ = try #require(probe.writer())
        let idle = try server.client()
        try idle.request("GET", "/warm-up")
        _ = try idle.readResponse()
        probe.flag.store(false, ordering: .sequentiallyConsistent)
        let slow = try server.client()
        try slow.request("GET", "/slow")
        let started = coreWaitUntil { probe.flag.load(ordering: .sequentiallyConsistent) }
        #expect(started)

        server.server.shutdown(gracePeriod: .seconds(30))
        server.server.shutdown(gracePeriod: .seconds(30))  // idempotent
        release.signal()
        let answer = try slow.readResponse()
        #expect(answer.status == 200)
        #expect(answer.text == "slow done")
        #expect(try streaming.readChunk() == nil)
        #expect(streaming.isClosedByServer())
        #expect(idle.isClosedByServer())
        // Nothing is left once all is answered and ended: the loops stop then, not at the end of the 30 s grace.
        let start = ContinuousClock.now
        server.server.waitUntilStopped()
        #expect(ContinuousClock.now - start < .seconds(15))
        #expect(probe.closeCount == 1)
        #expect(throws: HTTPTestConnection.Failure.self) { _ = try server.client() }
    }

    @Test func twoLoopsServeManyConcurrentConnections() throws {
        let threads = Mutex<Set<UInt>>([])
        // Dealt in turn (`.shared`): bound per processor, connections from one client thread would go to one loop.
        let server = try CoreTestServer(configure: { $0.eventLoopCount = 2; $0.loopPlacement = .shared }) { request, _ in
            threads.withLock { _ = $0.insert(UInt(pthread_self())) }
            return .text(request.target)
        }
        defer { server.stop() }
        let clients = try (0..<200).map { _ in try server.client() }
        for (index, client) in clients.enumerated() { try client.request("GET", "/\(index)") }
        for (index, client) in clients.enumerated() {
            let response = try client.readResponse()
            #expect(response.status == 200 && response.text == "/\(index)")
        }
        #expect(threads.withLock { $0.count } == 2)
    }

    @Test func portInUseIsAClearError() throws {
        let first = try CoreTestServer(responder: CoreTestServer.echo)
        defer { first.stop() }
        #expect(first.port > 0)
        let second = HTTPServer(
            configuration: HTTPServerConfiguration(port: first.port), responder: HTTPClosureResponder(CoreTestServer.echo),
            logger: .init(label: "test"))
        #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: first.port)) { try second.start() }
        second.waitUntilStopped()  // never started: returns at once
        #expect(throws: HTTPServerError.alreadyStarted) { try first.server.start() }
    }

    @Test func pipelinedLargeAnswersAreAllDeliveredInOrder() throws {
        let big = [UInt8](repeating: 65, count: 600 * 1024)
        let server = try CoreTestServer { request, _ in
            request.path == "/big" ? HTTPResponse(contentType: "application/octet-stream", bytes: big) : .text(request.target)
        }
        defer { server.stop() }
        let client = try server.client()
        try client.send(String(repeating: "GET /big HTTP/1.1\r\nHost: a\r\n\r\n", count: 6) + "GET /small HTTP/1.1\r\nHost: a\r\n\r\n")
        for _ in 0..<6 {
            let response = try client.readResponse()
            #expect(response.status == 200 && response.body.count == big.count)
        }
        #expect(try client.readResponse().text == "/small")
    }

    @Test func invalidStatusFromResponderBecomes500() throws {
        let server = try CoreTestServer { _, _ in HTTPResponse(status: HTTPStatus(code: -7), body: .bytes([])) }
        defer { server.stop() }
        let client = try server.client()
        try client.request("GET", "/")
        #expect(try client.readResponse().status == 500)
    }

    @Test func listenHosts() throws {
        for host in ["localhost", "0.0.0.0"] {
            let server = try CoreTestServer(configure: { $0.host = host }, responder: CoreTestServer.echo)
            let client = try server.client()
            try client.request("GET", "/")
            #expect(try client.readResponse().status == 200)
            server.stop()
        }
        // IPv6 loopback, and the peer's address as the responder sees it.
        let v6 = try CoreTestServer(configure: { $0.host = "::1" }) { _, context in .text(context.remoteAddress) }
        defer { v6.stop() }
        let v6Client = try HTTPTestConnection(port: v6.port, ipv6: true)
        try v6Client.request("GET", "/")
        #expect(try v6Client.readResponse().text == "::1")
        let bad = HTTPServer(
            configuration: HTTPServerConfiguration(host: "not an address", port: 0), responder: HTTPClosureResponder(CoreTestServer.echo),
            logger: .init(label: "test"))
        #expect(throws: HTTPServerError.invalidHost("not an address")) { try bad.start() }
        let badPort = HTTPServer(
            configuration: HTTPServerConfiguration(port: 70_000), responder: HTTPClosureResponder(CoreTestServer.echo),
            logger: .init(label: "test"))
        #expect(throws: HTTPServerError.invalidPort(70_000)) { try badPort.start() }
    }
}
