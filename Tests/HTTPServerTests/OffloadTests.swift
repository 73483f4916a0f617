import Dispatch
import Glibc
import Synchronization
import Testing
@testable import HTTPServer

/// Requests the server hands to its worker pool: they do not stall the loop that read them, their answers keep
/// the connection's order, and keys take turns on the workers.
@Suite struct OffloadTests {
    /// A responder whose `/slow/KEY` waits until released; everything else answers at once.
    final class Gate: Sendable {
        let released = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let order = Mutex<[String]>([])

        func respond(_ request: HTTPRequest) -> HTTPResponse {
            if request.path.hasPrefix("/slow/") {
                started.signal()
                released.wait()
            }
            order.withLock { $0.append(request.path) }
            return HTTPResponse(status: .ok, contentType: "text/plain", bytes: Array(request.path.utf8))
        }
    }

    /// Lets the server's loop take what was just sent (the order of arrival matters to the test).
    private static func pause() { usleep(100_000) }

    /// One loop, one worker; `/slow/…` and `/jobs/KEY/…` are offloaded under their second segment.
    private func server(_ gate: Gate, workers: Int = 1) throws -> CoreTestServer {
        try CoreTestServer(configure: { configuration in
            configuration.workerCount = workers
            configuration.offloadKey = { request in
                let segments = request.path.split(separator: "/")
                guard segments.count >= 2, segments[0] == "slow" || segments[0] == "jobs" else { return nil }
                return String(segments[1])
            }
        }, responder: { request, _ in gate.respond(request) })
    }

    @Test func aRequestAnsweredOffTheLoopDoesNotStallTheLoopsOtherConnections() throws {
        let gate = Gate()
        let server = try server(gate)
        defer { server.stop() }
        let slow = try server.client()
        try slow.request("GET", "/slow/a")
        #expect(gate.started.wait(timeout: .now() + 5) == .success)
        // The one loop answers another connection while the slow request waits on its worker.
        let fast = try server.client()
        try fast.request("GET", "/fast")
        #expect(try fast.readResponse().text == "/fast")
        gate.released.signal()
        let answer = try slow.readResponse()
        #expect(answer.status == 200 && answer.text == "/slow/a")
    }

    @Test func pipelinedRequestsBehindAnOffloadedOneAreAnsweredInOrder() throws {
        let gate = Gate()
        let server = try server(gate)
        defer { server.stop() }
        let client = try server.client()
        try client.send("GET /slow/a HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\nGET /jobs/a/2 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(gate.started.wait(timeout: .now() + 5) == .success)
        gate.released.signal()
        #expect(try client.readResponse().text == "/slow/a")
        #expect(try client.readResponse().text == "/fast")
        #expect(try client.readResponse().text == "/jobs/a/2")
        #expect(gate.order.withLock { $0 } == ["/slow/a", "/fast", "/jobs/a/2"])
    }

    @Test func aKeyWithManyRequestsWaitingTakesTurnsWithAKeyThatHasOne() throws {
        let gate = Gate()
        let server = try server(gate)
        defer { server.stop() }
        // The worker is held by "a"; then "a" queues five more, and "b" one.
        let first = try server.client()
        try first.request("GET", "/slow/a")
        #expect(gate.started.wait(timeout: .now() + 5) == .success)
        var flood: [CoreTestClient] = []
        for n in 1...5 {
            let client = try server.client()
            try client.request("GET", "/jobs/a/\(n)")
            flood.append(client)
        }
        Self.pause()
        let quiet = try server.client()
        try quiet.request("GET", "/jobs/b/1")
        Self.pause()
        gate.released.signal()
        #expect(try quiet.readResponse().text == "/jobs/b/1")
        for client in flood { #expect(try client.readResponse().status == 200) }
        #expect(try first.readResponse().status == 200)
        let order = gate.order.withLock { $0 }
        let b = try #require(order.firstIndex(of: "/jobs/b/1"))
        // After the request that held the worker, at most one of "a"'s five went before "b"'s.
        #expect(b <= 2, "order: \(order)")
    }

    @Test func aShutdownAnswersTheRequestsBeingAnsweredOffTheLoop() throws {
        let gate = Gate()
        let server = try server(gate)
        let client = try server.client()
        try client.request("GET", "/slow/a")
        #expect(gate.started.wait(timeout: .now() + 5) == .success)
        server.server.shutdown(gracePeriod: .seconds(5))
        gate.released.signal()
        let answer = try client.readResponse()
        #expect(answer.status == 200 && answer.header("Connection") == "close")
        server.server.waitUntilStopped()
    }
}
