import Glibc
import HTTPServer
import Testing

/// The whole-request deadline and the minimum body rate: a client that trickles a body is answered `408` and
/// closed, however often its bytes re-arm the idle timer.
@Suite struct RequestDeadlineTests {
    /// Sends `pieces` one by one, `interval` apart, until they run out or the server has something to say
    /// (an answer or a close); returns how many were sent and when the server spoke, from the first piece.
    private func trickle(
        _ pieces: [[UInt8]], every interval: Duration, on client: HTTPTestConnection
    ) throws -> (sent: Int, elapsed: Duration) {
        let start = ContinuousClock.now
        var sent = 0
        for piece in pieces {
            if client.hasInput(within: .zero) { break }
            do { try client.send(piece) } catch { break }  // the server closed under us
            sent += 1
            _ = client.hasInput(within: interval)
        }
        return (sent, ContinuousClock.now - start)
    }

    private static let slowHead = "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n"

    // The trickles below are the slow clients under test: their pauses stay. The two that must be cut would go on
    // for 30 s, far past the deadline being tested, so "cut" is `sent` short of the whole trickle, and "at the
    // deadline" a lower bound (no earlier) and a bound well under the trickle's length (not at its end), never a
    // figure a loaded machine could miss.

    @Test func trickledBodyIsCutWith408AtTheRequestDeadline() throws {
        // One byte every 200 ms keeps the idle timer (60 s) happy; only the request deadline can stop it.
        let server = try CoreTestServer(
            configure: { $0.requestTimeout = .seconds(2); $0.minimumBodyRate = 0 }, responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.send(Self.slowHead)
        let (sent, elapsed) = try trickle(Array(repeating: [UInt8(ascii: "x")], count: 150), every: .milliseconds(200), on: client)
        #expect(sent < 150, "the server must answer before the client gives up trickling")
        #expect(elapsed >= .milliseconds(1500) && elapsed < .seconds(15), "\(elapsed)")
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(response.header("Connection") == "close")
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(client.isClosedByServer())
    }

    @Test func bodySlowerThanTheMinimumRateIsCutWith408() throws {
        // 10 bytes every 200 ms is 50 bytes/s, under the 1,000 bytes/s asked for over 1 s windows.
        let server = try CoreTestServer(
            configure: { $0.minimumBodyRate = 1000; $0.bodyRateWindow = .seconds(1) }, responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.send(Self.slowHead)
        let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 10)
        let (sent, elapsed) = try trickle(Array(repeating: piece, count: 150), every: .milliseconds(200), on: client)
        #expect(sent < 150)
        #expect(elapsed < .seconds(15), "\(elapsed)")  // within a few 1 s windows, not at the 30 s trickle's end
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(response.text.contains("slower than 1000 bytes per second"))
        #expect(client.isClosedByServer())
    }

    @Test func bodyAboveTheMinimumRateIsReadOverSeveralWindows() throws {
        // 1,000 bytes every 50 ms (about 20,000 bytes/s) for about 3 s: three windows of 1 s, each well above
        // 1,000 bytes. A piece is a window's whole due, so only a client stalled for a whole window could fall under.
        let server = try CoreTestServer(
            configure: { $0.minimumBodyRate = 1000; $0.bodyRateWindow = .seconds(1) }, responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 60000\r\n\r\n")
        let piece = [UInt8](repeating: UInt8(ascii: "y"), count: 1000)
        let (sent, elapsed) = try trickle(Array(repeating: piece, count: 60), every: .milliseconds(50), on: client)
        #expect(sent == 60)
        #expect(elapsed >= .seconds(2))
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.body.count == 60000)
        // Keep-alive: the next request is served.
        try client.request("GET", "/next")
        #expect(try client.readResponse().header("X-Target") == "/next")
    }

    @Test func slowHeadWithinTheHeadTimeoutStillMeetsTheRequestDeadline() throws {
        // The head timeout (30 s) is longer than the request timeout (1 s): the earlier one wins, well before the
        // later one could have.
        let server = try CoreTestServer(
            configure: { $0.requestTimeout = .seconds(1); $0.headerReadTimeout = .seconds(30) }, responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client(timeout: .seconds(45))
        try client.send("GET / HTTP/1.1\r\nHost: a\r\n")
        let start = ContinuousClock.now
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(ContinuousClock.now - start < .seconds(15))
    }
}

extension HTTPTestConnection {
    /// Whether the server sent bytes or closed within `timeout` (poll(2) on the socket).
    func hasInput(within timeout: Duration) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        return poll(&descriptor, 1, milliseconds) > 0
    }
}
