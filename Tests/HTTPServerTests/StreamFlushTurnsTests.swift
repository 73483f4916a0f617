import Glibc
import Testing
@testable import HTTPServer

/// Streams are flushed after a pass's requests, at most `EventLoop.streamFlushesPerPass` a pass: every stream still
/// gets what was written to it, and a request that arrives while hundreds of streams wait is answered meanwhile.
@Suite struct StreamFlushTurnsTests {
    @Test func moreStreamsThanOnePassFlushesAllGetTheirBytesAndARequestIsAnsweredMeanwhile() throws {
        let probe = CoreTestProbe()
        let server = try CoreTestServer { request, _ in
            request.path == "/events" ? HTTPResponse(body: probe.stream()) : HTTPResponse(status: .ok, contentType: "text/plain", bytes: Array("pong".utf8))
        }
        defer { server.stop() }
        let streams = 5 * EventLoop.streamFlushesPerPass  // one loop (the test server's): five passes at least
        var clients: [HTTPTestConnection] = []
        for _ in 0..<streams {
            let client = try server.client()
            try client.request("GET", "/events")
            _ = try client.readHead()
            clients.append(client)
        }
        #expect(coreWaitUntil { probe.writers.withLock { $0.count } == streams })
        let writers = probe.writers.withLock { $0 }
        let other = try server.client()
        for (i, writer) in writers.enumerated() { #expect(writer.write(Array("event \(i)\n".utf8))) }
        try other.request("GET", "/ping")
        #expect(try other.readResponse().body == Array("pong".utf8))
        for (i, client) in clients.enumerated() {
            #expect(try client.readChunk() == Array("event \(i)\n".utf8))
        }
    }
}
