import Foundation
@testable import HTTPServer
import Synchronization
import Testing

/// A caller that knows more from decoded content's first bytes lowers the limit there (issue 26: an upload route
/// refuses content that is not a zip at the 1 MiB of a plist, not after inflating a 255 MiB bomb to its limit).
@Suite struct BodyInflaterLimitTests {
    private func inflate(_ content: [UInt8], limit: Int, limitFor: (UnsafeRawBufferPointer) -> Int?) throws -> BodyInflater.Result {
        let gzipped = try #require(Gzip.compress(content))
        return gzipped.withUnsafeBytes { BodyInflater.inflate($0, limit: limit, spoolThreshold: 1 << 20, limitFor: limitFor) }
    }

    @Test func theJudgeSeesTheContentsFirstBytesOnceAndItsLowerLimitStopsDecoding() throws {
        let content = Array("bplist00".utf8) + [UInt8](repeating: 7, count: 3 << 20)
        var seen: [[UInt8]] = []
        let result = try inflate(content, limit: 64 << 20) { prefix in
            seen.append(Array(prefix))
            return 1 << 20
        }
        #expect(seen == [Array(content.prefix(BodyInflater.prefixLength))])
        guard case .tooLargeForContent = result else { Issue.record("expected tooLargeForContent, got \(result)"); return }
    }

    @Test func withoutALowerLimitTheRoutesLimitHolds() throws {
        let content = [UInt8](repeating: 0, count: 3 << 20)
        let result = try inflate(content, limit: 2 << 20) { _ in nil }
        guard case .tooLarge = result else { Issue.record("expected tooLarge, got \(result)"); return }
        // A higher "limit" from the judge never raises the route's.
        let raised = try inflate(content, limit: 2 << 20) { _ in 64 << 20 }
        guard case .tooLarge = raised else { Issue.record("expected tooLarge, got \(raised)"); return }
    }

    @Test func contentShorterThanThePrefixIsJudgedWhole() throws {
        var seen: [[UInt8]] = []
        let result = try inflate(Array("PK".utf8), limit: 1 << 20) { prefix in
            seen.append(Array(prefix))
            return nil
        }
        #expect(seen == [Array("PK".utf8)])
        guard case .bytes(let bytes) = result else { Issue.record("expected bytes, got \(result)"); return }
        #expect(bytes == Array("PK".utf8))
    }

    @Test func contentUnderTheLowerLimitIsDecodedWhole() throws {
        let content = Array("<?xml version=\"1.0\"?>".utf8) + [UInt8](repeating: 0x20, count: 100_000)
        let result = try inflate(content, limit: 64 << 20) { _ in 1 << 20 }
        guard case .bytes(let bytes) = result else { Issue.record("expected bytes, got \(result)"); return }
        #expect(bytes == content)
    }

    @Test func aGzipBodyMayInflateToAHundredTimesItsSizePastTheFloor() {
        #expect(BodyInflater.ratioBound(encodedCount: 1_000) == 16 << 20)
        #expect(BodyInflater.ratioBound(encodedCount: 1 << 20) == 100 << 20)
        #expect(BodyInflater.ratioBound(encodedCount: .max / 2) == .max)
    }
}

/// A thread of the lowest class gives its processor back between pieces of long work (EEVDF gives it whole slices
/// otherwise, which another tenant's requests waited out: issue 26's floods): it knows it is one.
@Suite struct CooperativeYieldTests {
    @Test func onlyAThreadOfTheIdleClassYields() throws {
        #expect(!CooperativeYield.isLowPriorityThread())
        let seen = Mutex<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            var parameters = sched_param()
            guard pthread_setschedparam(pthread_self(), 5, &parameters) == 0 else { return }  // SCHED_IDLE
            seen.withLock { $0 = CooperativeYield.isLowPriorityThread() }
        }
        thread.start()
        // An idle-class thread gets a sliver of a loaded machine's processors: generous, and over once it ran.
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(seen.withLock { $0 } == true)
    }
}
