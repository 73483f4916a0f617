import Dispatch
import Foundation
import Testing
@testable import HTTPServer

/// Answers with a ``HTTPResponse/delay``: held on a timer of their loop (no thread waits), the connection reading
/// nothing more meanwhile, other connections served at once, and everything held sent at once on shutdown.
@Suite struct HeldAnswerTests {
    /// `/held/MS` answers after MS milliseconds; `/jobs/…` the same, made on the worker pool; anything else at once.
    /// `answered` is signalled as each answer leaves the responder (on the loop, which holds it right after).
    private func server(answered: DispatchSemaphore? = nil) throws -> CoreTestServer {
        try CoreTestServer(configure: { configuration in
            configuration.workerCount = 1
            configuration.offloadKey = { $0.path.hasPrefix("/jobs/") ? "jobs" : nil }
        }, responder: { request, _ in
            var response = HTTPResponse(status: .tooManyRequests, contentType: "text/plain", bytes: Array(request.path.utf8))
            if let ms = request.path.split(separator: "/").last.flatMap({ Int($0) }) { response.delay = .milliseconds(ms) }
            answered?.signal()
            return response
        })
    }

    private func timed<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
        let start = ContinuousClock.now
        let value = try body()
        return (value, ContinuousClock.now - start)
    }

    @Test func aHeldAnswerComesAfterItsDelayWhileAnotherConnectionIsAnsweredAtOnce() throws {
        let answered = DispatchSemaphore(value: 0)
        let server = try server(answered: answered)
        defer { server.stop() }
        let held = try server.client()
        let (slow, total) = try timed { () throws -> HTTPTestResponse in
            try held.request("GET", "/held/3000")
            #expect(answered.wait(timeout: .now() + 30) == .success)  // the loop holds it from now on
            let other = try server.client()
            let (fast, fastTime) = try timed {
                try other.request("GET", "/now")
                return try other.readResponse()
            }
            // Answered while the held one still waits (its 3 s are far longer than a round trip on any machine),
            // not after it.
            #expect(fast.text == "/now")
            #expect(!held.hasInput(within: .zero), "the other connection waited for the held answer: \(fastTime)")
            return try held.readResponse()
        }
        #expect(slow.status == 429 && slow.text == "/held/3000")
        #expect(total >= .milliseconds(2980))
    }

    @Test func anOffloadedAnswerIsHeldToo() throws {
        let server = try server()
        defer { server.stop() }
        let client = try server.client()
        let (answer, time) = try timed {
            try client.request("GET", "/jobs/300")
            return try client.readResponse()
        }
        #expect(answer.text == "/jobs/300" && time >= .milliseconds(280))
    }

    @Test func requestsPipelinedBehindAHeldAnswerWaitForIt() throws {
        let server = try server()
        defer { server.stop() }
        let client = try server.client()
        let (answers, time) = try timed {
            try client.send("GET /held/200 HTTP/1.1\r\nHost: x\r\n\r\nGET /held/200 HTTP/1.1\r\nHost: x\r\n\r\nGET /now HTTP/1.1\r\nHost: x\r\n\r\n")
            return try (0..<3).map { _ in try client.readResponse().text }
        }
        #expect(answers == ["/held/200", "/held/200", "/now"])
        #expect(time >= .milliseconds(380), "one held answer at a time on a connection")
    }

    @Test func shutdownSendsWhatIsHeldAtOnce() throws {
        let answered = DispatchSemaphore(value: 0)
        let server = try server(answered: answered)
        let client = try server.client(timeout: .seconds(60))
        try client.request("GET", "/held/120000")
        // The loop holds the answer once the responder gave it: the shutdown, which the loop takes after, finds it.
        #expect(answered.wait(timeout: .now() + 30) == .success)
        let core = server.server
        let (answer, time) = try timed { () throws -> HTTPTestResponse in
            DispatchQueue.global().async {
                core.shutdown(gracePeriod: .seconds(30))
                core.waitUntilStopped()
            }
            return try client.readResponse()
        }
        // At once: well before the 30 s grace period, let alone the answer's 120 s.
        #expect(answer.text == "/held/120000" && time < .seconds(15), "\(time)")
    }

    @Test func theHeapGivesAnswersBackSoonestFirstAndTiesInOrder() {
        var held = HeldAnswers()
        let due: [Int64] = [50, 10, 30, 10, 40, 20]
        for (n, at) in due.enumerated() {
            let parsed = HTTPRequestParser.Parsed(
                request: HTTPRequest(method: .get, target: "/\(n)"), keepAlive: true, clientRequestId: nil)
            held.hold(OffloadedAnswer(connection: UInt64(n), parsed: parsed, requestId: "", response: HTTPResponse()), until: at)
        }
        #expect(held.nextDue == 10)
        #expect(held.takeDue(at: 5) == nil)
        var order: [UInt64] = []
        while let answer = held.takeDue(at: 35) { order.append(answer.connection) }
        #expect(order == [1, 3, 5, 2])
        #expect(held.takeAll().map(\.connection) == [4, 0])
        #expect(held.isEmpty)
    }
}
