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
        /// The paths the loop handed to the worker pool, in the order it read them.
        let offloaded = Mutex<[String]>([])

        func respond(_ request: HTTPRequest) -> HTTPResponse {
            if request.path.hasPrefix("/slow/") {
                started.signal()
                released.wait()
            }
            order.withLock { $0.append(request.path) }
            return HTTPResponse(status: .ok, contentType: "text/plain", bytes: Array(request.path.utf8))
        }
    }

    /// Waits until the server's loop has read `count` offloaded requests in all (the order of arrival matters to
    /// the test), then until it went once round its other connections: the loop hands a request to the workers
    /// right after asking its key, and a request on another connection answered later was read after that.
    private static func waitUntilOffloaded(_ count: Int, _ gate: Gate, _ server: CoreTestServer) throws {
        #expect(coreWaitUntil { gate.offloaded.withLock { $0.count } >= count }, "\(gate.offloaded.withLock { $0 })")
        let probe = try server.client()
        try probe.request("GET", loopTurn)
        #expect(try probe.readResponse().text == loopTurn)
    }

    /// The path of the request ``waitUntilOffloaded(_:_:_:)`` sends (answered on the loop).
    static let loopTurn = "/loop-turn"

    /// One loop, one worker; `/slow/…` and `/jobs/KEY/…` are offloaded under their second segment.
    private func server(_ gate: Gate, workers: Int = 1) throws -> CoreTestServer {
        try CoreTestServer(configure: { configuration in
            configuration.workerCount = workers
            configuration.offloadKey = { request in
                let segments = request.path.split(separator: "/")
                guard segments.count >= 2, segments[0] == "slow" || segments[0] == "jobs" else { return nil }
                gate.offloaded.withLock { $0.append(request.path) }
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
        #expect(gate.started.wait(timeout: .now() + 30) == .success)
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
        #expect(gate.started.wait(timeout: .now() + 30) == .success)
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
        #expect(gate.started.wait(timeout: .now() + 30) == .success)
        var flood: [HTTPTestConnection] = []
        for n in 1...5 {
            let client = try server.client()
            try client.request("GET", "/jobs/a/\(n)")
            flood.append(client)
        }
        try Self.waitUntilOffloaded(6, gate, server)  // "/slow/a" and the five
        let quiet = try server.client()
        try quiet.request("GET", "/jobs/b/1")
        try Self.waitUntilOffloaded(7, gate, server)
        gate.released.signal()
        #expect(try quiet.readResponse().text == "/jobs/b/1")
        for client in flood { #expect(try client.readResponse().status == 200) }
        #expect(try first.readResponse().status == 200)
        let order = gate.order.withLock { $0 }.filter { $0 != Self.loopTurn }
        let b = try #require(order.firstIndex(of: "/jobs/b/1"))
        // After the request that held the worker, at most one of "a"'s five went before "b"'s.
        #expect(b <= 2, "order: \(order)")
    }

    @Test func aShutdownAnswersTheRequestsBeingAnsweredOffTheLoop() throws {
        let gate = Gate()
        let server = try server(gate)
        let client = try server.client()
        try client.request("GET", "/slow/a")
        #expect(gate.started.wait(timeout: .now() + 30) == .success)
        server.server.shutdown(gracePeriod: .seconds(5))
        gate.released.signal()
        let answer = try client.readResponse()
        #expect(answer.status == 200 && answer.header("Connection") == "close")
        server.server.waitUntilStopped()
    }
}
