import Testing
@testable import HTTPServer

/// The memory closed streams freed goes back to the system by a trim soon after, one for a burst of closes.
@Suite struct HeapTrimmerTests {
    @Test func aBurstOfClosesAsksForOneTrimAndALaterCloseForAnother() {
        // A second's delay (the service's own): the burst of 1,000 asks, a few microseconds, is over long before
        // the trim it asked for, however loaded the machine.
        let trimmer = HeapTrimmer(delay: .seconds(1))
        for _ in 0..<1000 { trimmer.trimSoon() }
        #expect(coreWaitUntil(timeout: .seconds(30)) { trimmer.trimCount >= 1 })
        #expect(trimmer.trimCount == 1, "a burst of asks is one trim")
        trimmer.trimSoon()
        #expect(coreWaitUntil(timeout: .seconds(30)) { trimmer.trimCount >= 2 })
    }

    @Test func aPeriodicTrimRunsAgainAndAgain() {
        let trimmer = HeapTrimmer(delay: .seconds(60))
        trimmer.trimEvery(.milliseconds(20))
        trimmer.trimEvery(.milliseconds(20))  // idempotent
        #expect(coreWaitUntil(timeout: .seconds(30)) { trimmer.trimCount >= 3 })
        trimmer.stopPeriodicTrims()
    }
}
