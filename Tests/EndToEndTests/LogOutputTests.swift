@testable import bgemu
import Foundation
import Glibc
import Testing

/// The service's log lines: their timestamp as Foundation's ISO 8601 style writes it, and the buffered sink that
/// writes them off the threads that log, losing none and keeping their order.
struct LogOutputTests {
    @Test func theCachedTimestampReadsAsFoundationsISO8601WithMilliseconds() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for (seconds, milliseconds) in [(0, 0), (1_767_225_600, 7), (1_798_761_599, 999), (951_782_400, 120), (4_102_444_800, 50)] {
            let date = Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000 + 0.0001)
            #expect(String(decoding: LogTimestamp.format(seconds: seconds, milliseconds: milliseconds), as: UTF8.self)
                == date.formatted(style))
        }
    }

    @Test func everyLineAppendedFromManyThreadsIsWrittenWholeAndInEachThreadsOrder() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let sink = LogSink(descriptor: writeEnd)
        let collected = LockedBytes()
        let read = Thread {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                collected.append(chunk[0..<n])
            }
        }
        read.start()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for line in 0..<2_000 { sink.append(Array("t\(thread) \(line)\n".utf8), urgent: line % 500 == 0) }
        }
        sink.flush()
        close(writeEnd)
        let deadline = Date().addingTimeInterval(30)
        while collected.lineCount < 8_000, Date() < deadline { usleep(1_000) }
        let lines = collected.text.split(separator: "\n")
        #expect(lines.count == 8_000)
        for thread in 0..<4 {
            let mine = lines.filter { $0.hasPrefix("t\(thread) ") }.map { Int($0.split(separator: " ")[1])! }
            #expect(mine == Array(0..<2_000), "thread \(thread)'s lines in order")
        }
    }
}

/// Bytes read from a pipe, shared with the test.
final class LockedBytes: @unchecked Sendable {
    // @unchecked Sendable: `bytes` is behind `lock`.
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    func append(_ more: ArraySlice<UInt8>) { lock.withLock { bytes += more } }
    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
    var lineCount: Int { lock.withLock { bytes.filter { $0 == 10 }.count } }
}
