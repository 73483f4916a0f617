import Dispatch
import Glibc
import Logging
import Synchronization
import Testing
@testable import HTTPServer

/// A stream's unsent backlog (queued by the producer, or taken by the loop and not yet accepted by the socket) is
/// bounded by `maxStreamBacklog`: a write past it disconnects the client, a producer that paces itself on
/// `whenBacklog(atMost:_:)` reaches a slow client without ever being refused, and a client that takes nothing of
/// what waits for it for the idle timeout is disconnected.
@Suite struct StreamBacklogTests {
    @Test func aClientThatStopsReadingIsDisconnectedWithNoMoreThanTheBacklogBoundDropped() throws {
        let probe = CoreTestProbe()
        let limit = 16 * 1024
        let server = try CoreTestServer(configure: { $0.maxStreamBacklog = limit }) { _, _ in HTTPResponse(body: probe.stream()) }
        defer { server.stop() }
        let client = try server.client(receiveBufferSize: 4096)
        try client.request("GET", "/events")
        _ = try client.readHead()
        let writer = try #require(probe.writer())
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: 1000)
        var accepted = 0
        var largestBacklog = 0
        // Written at a pace the loop keeps up with, so that the kernel's buffers fill before the server's backlog.
        while accepted < 8_000_000, writer.write(block) {
            accepted += block.count
            usleep(100)
            largestBacklog = max(largestBacklog, writer.backlog)
        }
        #expect(accepted < 8_000_000, "a client that does not read must be disconnected")
        // Before it was, the server's backlog, the kernel's send buffer (capped to half the bound, which the kernel
        // doubles) and the client's receive buffer took what the client did not read: a few times the bound, not the
        // megabytes an autotuned send buffer would hold.
        #expect(accepted <= 4 * limit, "\(accepted) bytes were taken before the disconnect")
        #expect(!writer.isOpen)
        #expect(largestBacklog <= limit)
        #expect(coreWaitUntil { probe.closeCount == 1 })
        // The client can still read what reached the kernels; the rest, dropped by the server, is at most the bound
        // (chunk sizes are hex digits: no "x" in the framing).
        let rest = try client.readUntilClose()
        let received = rest.reduce(0) { $0 + ($1 == UInt8(ascii: "x") ? 1 : 0) }
        #expect(accepted - received <= limit, "dropped \(accepted - received) bytes, over the \(limit)-byte bound")
    }

    @Test func aProducerPacedByTheBacklogReachesASlowReaderWholeAndIsNeverRefused() throws {
        let probe = CoreTestProbe()
        let limit = 16 * 1024
        let server = try CoreTestServer(configure: { $0.maxStreamBacklog = limit }) { _, _ in HTTPResponse(body: probe.stream()) }
        defer { server.stop() }
        let client = try server.client(receiveBufferSize: 4096)
        try client.request("GET", "/events")
        _ = try client.readHead()
        let writer = try #require(probe.writer())
        let producer = PacedProducer(writer: writer, blocks: 3000, blockSize: 700, highWater: limit / 2, lowWater: limit / 4)
        producer.pump()
        var received = 0
        var inOrder = true
        while received < 3000, let chunk = try client.readChunk() {
            inOrder = inOrder && chunk == PacedProducer.block(received, size: 700)
            received += 1
            if received % 8 == 0 { usleep(500) }  // the slow reader under test (slower still on a loaded machine)
        }
        #expect(received == 3000)
        #expect(inOrder)
        #expect(!producer.wasRefused)
        #expect(producer.largestBacklog <= limit / 2 + 700 + 20)
        #expect(writer.isOpen)
    }

    @Test func aStreamWhoseClientTakesNothingForTheIdleTimeoutIsClosedAndAnIdleOneIsNot() throws {
        let probe = CoreTestProbe()
        let server = try CoreTestServer(configure: { $0.idleTimeout = .seconds(1) }) { _, _ in HTTPResponse(body: probe.stream()) }
        defer { server.stop() }
        let idle = try server.client(receiveBufferSize: 4096)
        try idle.request("GET", "/events")
        _ = try idle.readHead()
        let stalled = try server.client(timeout: .seconds(10), receiveBufferSize: 4096)
        try stalled.request("GET", "/events")
        _ = try stalled.readHead()
        let idleWriter = try #require(probe.writer(0))
        let writer = try #require(probe.writer(1))
        // A producer paced on the backlog writes until bytes wait, then waits for them to drain; they never do.
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: 4000)
        var written = 0
        while written < 8_000_000, writer.backlog < 40_000, writer.write(block) {
            written += block.count
            usleep(500)
        }
        #expect(writer.isOpen)
        #expect(coreWaitUntil { !writer.isOpen }, "a client taking nothing is disconnected")
        #expect(probe.closeCount == 1)
        #expect(idleWriter.isOpen, "a stream with nothing waiting has no deadline")
        #expect(idleWriter.write(Array("data: still here\n\n".utf8)))
        #expect(try idle.readChunk() == Array("data: still here\n\n".utf8))
    }

    @Test func anEndedStreamWhoseClientStopsReadingIsClosedAfterTheIdleTimeout() throws {
        let probe = CoreTestProbe()
        let server = try CoreTestServer(configure: { $0.idleTimeout = .seconds(1) }) { _, _ in HTTPResponse(body: probe.stream()) }
        defer { server.stop() }
        let client = try server.client(timeout: .seconds(10), receiveBufferSize: 4096)
        try client.request("GET", "/events")
        _ = try client.readHead()
        let writer = try #require(probe.writer())
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: 4000)
        // Fill the kernels' buffers until 40 KB wait on the server, and still wait after a pause: the kernel can
        // take more a while after it first refuses (it coalesces what it holds), so top up until a pause of 0.3 s
        // leaves the backlog where it was. Then end the stream: its last chunk cannot go.
        var written = 0
        for _ in 0..<20 {
            while written < 8_000_000, writer.backlog < 40_000, writer.write(block) {
                written += block.count
                usleep(500)
            }
            let before = writer.backlog
            usleep(300_000)
            if before >= 40_000 && writer.backlog == before { break }
        }
        #expect(writer.backlog >= 40_000)
        writer.finish()
        // The server gives up past the idle timeout (checked once a second) and closes: read only then, or the
        // reading would make room for the last chunk.
        #expect(coreWaitUntil { server.server.statistics.openConnections == 0 }, "the connection was not closed")
        let rest = try client.readUntilClose()
        #expect(!String(decoding: rest.suffix(7), as: UTF8.self).hasSuffix("0\r\n\r\n"), "the server gave up on the last bytes")
    }

    @Test func aBurstPastTheBoundWhileTheSocketTakesEverythingEndsWithACommentAndTheLastChunk() throws {
        let loop = try EventLoop(
            index: 0, settings: LoopSettings(HTTPServerConfiguration()), responder: HTTPClosureResponder { _, _ in .text("") },
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let writer = ConnectionStreamWriter(loop: loop, key: 1, chunked: true, limit: 100)
        #expect(writer.write(Array("data: a\n\n".utf8)))
        #expect(!writer.write([UInt8](repeating: 65, count: 100)), "past the bound: refused")
        #expect(!writer.isOpen)
        let taken = writer.take(writable: true) { $0.count }
        #expect(taken.phase == .finishing)
        let text = String(decoding: taken.bytes, as: UTF8.self)
        #expect(text.hasPrefix("9\r\ndata: a\n\n\r\n"))
        #expect(text.contains(": stream closed: more than 100 bytes were waiting for this client; reconnect with Last-Event-ID\n\n"))
        #expect(text.hasSuffix("\r\n0\r\n\r\n"))
    }

    @Test func aClientFallenBehindWithTheSocketFullIsDroppedAtOnce() throws {
        let loop = try EventLoop(
            index: 0, settings: LoopSettings(HTTPServerConfiguration()), responder: HTTPClosureResponder { _, _ in .text("") },
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let writer = ConnectionStreamWriter(loop: loop, key: 1, chunked: true, limit: 100)
        #expect(writer.write([UInt8](repeating: 65, count: 60)))
        let taken = writer.take(writable: true) { _ in 10 }  // the socket takes 10 bytes of the 66-byte chunk
        #expect(writer.backlog == taken.bytes.count - 10)
        #expect(writer.write([UInt8](repeating: 66, count: 5)), "56 in flight and a 10-byte chunk: within the bound")
        #expect(!writer.write([UInt8](repeating: 67, count: 20)), "66 and a 40-byte chunk: past the bound")
        #expect(writer.take(writable: false) { _ in 0 }.phase == .closed)
        #expect(writer.backlog == taken.bytes.count - 10, "the queue is dropped")
    }
}

/// Writes numbered blocks to a stream, keeping its backlog under `highWater` and resuming once it drained to
/// `lowWater`, as the event replay does.
final class PacedProducer: Sendable {
    private struct State {
        var next = 0
        var refused = false
        var largestBacklog = 0
    }

    private let state = Mutex(State())
    private let writer: any HTTPStreamWriter
    private let blocks: Int
    private let blockSize: Int
    private let highWater: Int
    private let lowWater: Int
    private let queue = DispatchQueue(label: "test.paced-producer")

    init(writer: any HTTPStreamWriter, blocks: Int, blockSize: Int, highWater: Int, lowWater: Int) {
        self.writer = writer
        self.blocks = blocks
        self.blockSize = blockSize
        self.highWater = highWater
        self.lowWater = lowWater
    }

    var wasRefused: Bool { state.withLock { $0.refused } }
    var largestBacklog: Int { state.withLock { $0.largestBacklog } }

    /// Block `index`: `size` bytes of one letter, the letters going round.
    static func block(_ index: Int, size: Int) -> [UInt8] {
        [UInt8](repeating: UInt8(ascii: "a") + UInt8(index % 26), count: size)
    }

    func pump() {
        queue.async { self.run() }
    }

    private func run() {
        while true {
            let next = state.withLock { $0.next }
            guard next < blocks else { return }
            if writer.backlog + blockSize > highWater {
                writer.whenBacklog(atMost: lowWater) { self.pump() }
                return
            }
            guard writer.write(Self.block(next, size: blockSize)) else {
                state.withLock { $0.refused = true }
                return
            }
            let backlog = writer.backlog
            state.withLock { state in
                state.next += 1
                state.largestBacklog = max(state.largestBacklog, backlog)
            }
        }
    }
}
