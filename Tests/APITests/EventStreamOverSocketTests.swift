import Emulation
import Foundation
import Glibc
import Logging
import Testing
@testable import API
@testable import HTTPServer

/// Event streams through the real server and SQLite, read over a socket: the stream's unsent backlog stays within
/// `maxStreamBacklog` while a history far larger is replayed to a slow client, or a burst far larger reaches a fast
/// one, and neither is disconnected.
@Suite struct EventStreamOverSocketTests {
    /// The harness's API on a real loopback server: one loop, a 16 KiB stream backlog.
    private static func startServer(_ harness: EventTestHarness) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoopCount: 1)
        configuration.maxStreamBacklog = 16 * 1024
        let server = HTTPServer(
            configuration: configuration, responder: harness.responder,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try server.start()
        return server
    }

    @Test func aResumedStreamReplays20000StoredEventsToASlowReaderWithin16KiBWithoutGapOrRepeat() throws {
        let harness = try EventTestHarness()
        let tenant = try harness.makeTenant("slow")
        let device = try harness.makeDevice(key: tenant.key)
        for batch in 0..<40 {
            try harness.record(
                (0..<500).map { testEvent("history.\(batch)", data: ["n": .int(Int64($0))]) }, deviceId: device, tenantId: tenant.id)
        }
        let server = try Self.startServer(harness)
        defer {
            server.shutdown(gracePeriod: .seconds(1))
            server.waitUntilStopped()
        }
        let client = try SocketClient(port: server.localPort, receiveBufferSize: 4096)
        try client.send(
            "GET /v1/events HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(tenant.key)\r\nAccept: text/event-stream\r\n"
                + "Last-Event-ID: 0\r\n\r\n")
        // Read slowly (4 KiB every 2 ms, some 2 MB/s); halfway, live events are committed.
        var liveCommitted = false
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            guard try client.read(upTo: 4096) else { break }
            if !liveCommitted, client.received.count > 2_000_000 {
                liveCommitted = true
                for n in 0..<100 { try harness.record([testEvent("live.\(n)")], deviceId: device, tenantId: tenant.id) }
            }
            if liveCommitted, let start = client.tail.range(of: "id: 20100\n"),
               client.tail[start.upperBound...].contains("\n\n\r\n") { break }
            usleep(2000)
        }
        let body = try #require(client.chunkedBody(), "the stream is still open and well framed")
        let stream = SSEStream(String(decoding: body, as: UTF8.self))
        #expect(stream.events.compactMap { $0.id.flatMap { Int64($0) } } == Array(1...20_100))
        #expect(harness.hub.subscriberCount == 1, "the stream was never closed for falling behind")
    }
}

extension EventStreamOverSocketTests {
    @Test func aBurstOf5000EventsFarLargerThanA16KiBBoundReachesAFastReaderWholeWithoutADisconnect() throws {
        let harness = try EventTestHarness()
        let tenant = try harness.makeTenant("fast")
        let device = try harness.makeDevice(key: tenant.key)
        let server = try Self.startServer(harness)
        defer {
            server.shutdown(gracePeriod: .seconds(1))
            server.waitUntilStopped()
        }
        let client = try SocketClient(port: server.localPort, receiveBufferSize: nil)
        try client.send("GET /v1/events HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(tenant.key)\r\nAccept: text/event-stream\r\n\r\n")
        while !client.tail.contains("retry:") { guard try client.read(upTo: 4096) else { break } }
        // One commit, one publish: 5,000 events (about 1 MB) for the stream at once.
        try harness.record(
            (0..<5000).map { testEvent("burst", data: ["n": .int(Int64($0))]) }, deviceId: device, tenantId: tenant.id)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            guard try client.read(upTo: 65536) else { break }
            if let start = client.tail.range(of: "id: 5000\n"), client.tail[start.upperBound...].contains("\n\n\r\n") { break }
        }
        let body = try #require(client.chunkedBody())
        let stream = SSEStream(String(decoding: body, as: UTF8.self))
        #expect(stream.events.compactMap { $0.id.flatMap { Int64($0) } } == Array(1...5000))
        #expect(stream.comments.allSatisfy { !$0.hasPrefix("stream closed") })
        #expect(harness.hub.subscriberCount == 1, "the stream was never closed for the burst")
    }
}

/// A loopback client that reads as slowly as the test asks, with a small receive buffer if asked, and keeps all it
/// read.
final class SocketClient {
    let socket: RawSocket
    private(set) var received: [UInt8] = []

    init(port: Int, receiveBufferSize: Int32?) throws {
        socket = try RawSocket(port: port, receiveTimeout: .seconds(5), receiveBufferSize: receiveBufferSize)
    }

    func send(_ text: String) throws { try socket.send(text) }

    /// Reads once, up to `count` bytes; false when the server closed (or nothing came within 5 s).
    func read(upTo count: Int) throws -> Bool {
        guard case .bytes(let bytes) = socket.receive(upTo: count) else { return false }
        received += bytes
        return true
    }
    /// The last 2 KiB received, as text.
    var tail: String { String(decoding: received.suffix(2048), as: UTF8.self) }

    /// The body of the chunked response received so far (complete chunks only); nil when the head or a chunk is
    /// malformed.
    func chunkedBody() -> [UInt8]? {
        let separator = Array("\r\n\r\n".utf8)
        guard let headEnd = received.firstRange(of: separator)?.upperBound else { return nil }
        var body: [UInt8] = []
        var index = headEnd
        while let lineEnd = received[index...].firstRange(of: Array("\r\n".utf8)) {
            guard let size = Int(String(decoding: received[index..<lineEnd.lowerBound], as: UTF8.self), radix: 16) else { return nil }
            let dataEnd = lineEnd.upperBound + size
            guard size > 0, dataEnd + 2 <= received.count else { break }
            body += received[lineEnd.upperBound..<dataEnd]
            index = dataEnd + 2
        }
        return body
    }
}
