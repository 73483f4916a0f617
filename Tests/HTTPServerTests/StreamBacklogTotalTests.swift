import Logging
import Testing
@testable import HTTPServer

/// Every stream's backlog counts in the server's total: past its limit a stream that still has bytes waiting is cut
/// (its client resumes with `Last-Event-ID`), one with nothing waiting still writes, and closing gives the bytes back.
@Suite struct StreamBacklogTotalTests {
    private func loop() throws -> EventLoop {
        try EventLoop(
            index: 0, settings: LoopSettings(HTTPServerConfiguration()), responder: HTTPClosureResponder { _, _ in .text("") },
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    @Test func pastTheServersTotalAStreamWithBytesWaitingIsCutAndOneWithNoneStillWrites() throws {
        let loop = try loop()
        let total = StreamBacklogTotal(limit: 250)
        let behind = ConnectionStreamWriter(loop: loop, key: 1, chunked: true, limit: 1000, total: total)
        let alsoBehind = ConnectionStreamWriter(loop: loop, key: 2, chunked: true, limit: 1000, total: total)
        let keepingUp = ConnectionStreamWriter(loop: loop, key: 3, chunked: true, limit: 1000, total: total)
        let block = [UInt8](repeating: 65, count: 100)
        #expect(behind.write(block))
        #expect(alsoBehind.write(block))
        #expect(total.current == 2 * 106, "each block is a chunk: 64 CRLF, 100 bytes, CRLF")
        // Each stream is far within its own bound (1,000), but together they would pass the server's.
        #expect(!behind.write(block), "the total would pass its limit: the stream that is behind is cut")
        #expect(!behind.isOpen)
        let taken = behind.take(writable: true) { $0.count }
        #expect(taken.phase == .finishing)
        #expect(String(decoding: taken.bytes, as: UTF8.self).contains(
            ": stream closed: the server's streams hold more than 250 bytes for their clients and this one was behind; "
                + "reconnect with Last-Event-ID\n\n"))
        #expect(keepingUp.write(block), "a stream with nothing waiting is never cut for the others")
        #expect(keepingUp.isOpen)
        #expect(total.current == 2 * 106, "what the socket took no longer counts")
        alsoBehind.end(.closed)
        keepingUp.end(.closed)
        behind.end(.closed)
        #expect(total.current == 0)
    }

    @Test func bytesTheSocketHasNotTakenCountUntilTheConnectionCloses() throws {
        let loop = try loop()
        let total = StreamBacklogTotal(limit: 10_000)
        let writer = ConnectionStreamWriter(loop: loop, key: 1, chunked: false, limit: 1000, total: total)
        #expect(writer.write([UInt8](repeating: 65, count: 300)))
        _ = writer.take(writable: true) { _ in 100 }  // the socket takes 100 of 300
        #expect(total.current == 200)
        #expect(writer.sendInFlight { 50 } == 50)  // 150 more sent: 50 left
        #expect(total.current == 50)
        writer.end(.closed)
        #expect(total.current == 0)
    }
}
