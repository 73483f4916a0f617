import Logging
import Testing
@testable import HTTPServer

/// Every stream's backlog counts in the server's total: past its limit the streams furthest behind are cut (their
/// clients resume with `Last-Event-ID`), one with nothing waiting never is, and closing gives the bytes back.
@Suite struct StreamBacklogTotalTests {
    private func loop() throws -> EventLoop {
        try EventLoop(
            index: 0, settings: LoopSettings(HTTPServerConfiguration()), responder: HTTPClosureResponder { _, _ in .text("") },
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    @Test func pastTheServersTotalTheStreamFurthestBehindIsCutNotTheOneBeingWritten() throws {
        let loop = try loop()
        let total = StreamBacklogTotal(limit: 250)
        let furthestBehind = ConnectionStreamWriter(loop: loop, key: 1, chunked: true, limit: 1000, total: total)
        let alsoBehind = ConnectionStreamWriter(loop: loop, key: 2, chunked: true, limit: 1000, total: total)
        let keepingUp = ConnectionStreamWriter(loop: loop, key: 3, chunked: true, limit: 1000, total: total)
        #expect(furthestBehind.write([UInt8](repeating: 65, count: 150)))
        #expect(alsoBehind.write([UInt8](repeating: 66, count: 50)))
        #expect(total.current == 156 + 56, "each block is a chunk: its size in hex, CRLF, the bytes, CRLF")
        // Each stream is far within its own bound (1,000), but this write takes the three past the server's 250.
        #expect(keepingUp.write([UInt8](repeating: 67, count: 50)), "the stream written to is not the one behind")
        #expect(!furthestBehind.isOpen, "the largest backlog is cut")
        #expect(alsoBehind.isOpen && keepingUp.isOpen, "cutting the largest brought the rest under nine tenths")
        #expect(total.cutCount == 1)
        let taken = furthestBehind.take(writable: true) { $0.count }
        #expect(taken.phase == .finishing)
        #expect(String(decoding: taken.bytes, as: UTF8.self).contains(
            ": stream closed: the server's streams hold more than 250 bytes for their clients and this one was behind; "
                + "reconnect with Last-Event-ID\n\n"))
        #expect(total.current == 56 + 56, "what the socket took no longer counts")
        alsoBehind.end(.closed)
        keepingUp.end(.closed)
        furthestBehind.end(.closed)
        #expect(total.current == 0)
    }

    @Test func aStreamWithNothingWaitingIsNeverCutForTheOthers() throws {
        let loop = try loop()
        let total = StreamBacklogTotal(limit: 100)
        let behind = ConnectionStreamWriter(loop: loop, key: 1, chunked: false, limit: 1000, total: total)
        let drained = ConnectionStreamWriter(loop: loop, key: 2, chunked: false, limit: 1000, total: total)
        #expect(drained.write([UInt8](repeating: 65, count: 10)))
        _ = drained.take(writable: true) { $0.count }  // the socket took it all
        #expect(behind.write([UInt8](repeating: 66, count: 150)), "one write into an empty backlog always goes")
        #expect(behind.write([UInt8](repeating: 66, count: 10)) == false, "past the total, the one behind is cut")
        #expect(drained.isOpen)
        #expect(total.cutCount == 1)
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
