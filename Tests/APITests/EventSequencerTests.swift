import Emulation
import Foundation
import Testing
@testable import API
import Stores

@Suite struct EventSequencerTests {
    private func events(_ ids: Int64...) -> [RecordedEvent] {
        ids.map { id in
            RecordedEvent(id: id, tenantId: "t", deviceId: "d", event: testEvent("e"), recordedAt: Date(timeIntervalSince1970: 0))
        }
    }

    private let start = ContinuousClock.now

    @Test func inOrderEventsGoStraightThrough() {
        var sequencer = EventSequencer(watermark: 10)
        #expect(sequencer.accept(events(11, 12), now: start).released.map(\.id) == [11, 12])
        #expect(sequencer.accept(events(13), now: start).released.map(\.id) == [13])
        #expect(sequencer.watermark == 13 && !sequencer.isBlocked && sequencer.blockedSince == nil)
    }

    /// The path for events that follow the watermark in order, and the cases it must leave to the general one.
    @Test func onlyEventsThatFollowTheWatermarkInOrderTakeTheShortPath() {
        var sequencer = EventSequencer(watermark: 10)
        #expect(sequencer.accept(events(12, 11), now: start).released.map(\.id) == [11, 12], "a swapped batch is sorted")
        #expect(sequencer.accept(events(13, 15), now: start).released.map(\.id) == [13], "15 waits for 14")
        #expect(sequencer.isBlocked)
        #expect(sequencer.accept(events(14), now: start).released.map(\.id) == [14, 15], "nothing pending is skipped")
        #expect(sequencer.accept(events(15, 16), now: start).late == [15], "a repeat is late, not released twice")
        #expect(sequencer.watermark == 16 && !sequencer.isBlocked)
        var fresh = EventSequencer(watermark: nil)
        #expect(fresh.accept(events(7, 8), now: start).released.map(\.id) == [7, 8])
        #expect(fresh.accept([], now: start).released.isEmpty && fresh.watermark == 8)
    }

    @Test func eventsPublishedOutOfOrderAreReleasedInOrder() {
        var sequencer = EventSequencer(watermark: 0)
        #expect(sequencer.accept(events(3, 4), now: start).released.isEmpty)
        #expect(sequencer.accept(events(2), now: start).released.isEmpty)
        #expect(sequencer.isBlocked && sequencer.pendingCount == 3)
        #expect(sequencer.accept(events(1), now: start).released.map(\.id) == [1, 2, 3, 4])
        #expect(!sequencer.isBlocked && sequencer.watermark == 4)
    }

    @Test func repeatsAndEventsAtOrBelowTheWatermarkAreLate() {
        var sequencer = EventSequencer(watermark: 5)
        let outcome = sequencer.accept(events(4, 5, 6, 6), now: start)
        #expect(outcome.released.map(\.id) == [6])
        #expect(outcome.late == [4, 5, 6])
        #expect(sequencer.accept(events(8), now: start).late.isEmpty)
        #expect(sequencer.accept(events(8), now: start).late == [8])  // pending already
    }

    @Test func withoutAKnownEndTheFirstPublishSetsIt() {
        var sequencer = EventSequencer(watermark: nil)
        #expect(sequencer.accept(events(42, 41), now: start).released.map(\.id) == [41, 42])
        #expect(sequencer.watermark == 42)
    }

    @Test func aHoleIsGivenUpOnOnlyAfterTheTimeout() {
        var sequencer = EventSequencer(watermark: 0)
        _ = sequencer.accept(events(1), now: start)
        #expect(sequencer.accept(events(3, 4, 7), now: start).released.isEmpty)
        #expect(sequencer.stallDeadline(timeout: .seconds(1)) == start + .seconds(1))

        let early = sequencer.skipStalledGap(timeout: .seconds(1), now: start + .milliseconds(999))
        #expect(early.released.isEmpty && early.skipped == nil)

        let skipped = sequencer.skipStalledGap(timeout: .seconds(1), now: start + .seconds(1))
        #expect(skipped.skipped == 2...2)
        #expect(skipped.released.map(\.id) == [3, 4])
        // The next hole (5–6) blocks from now on, with a timeout of its own.
        #expect(sequencer.stallDeadline(timeout: .seconds(1)) == start + .seconds(2))
        #expect(sequencer.skipStalledGap(timeout: .seconds(1), now: start + .milliseconds(1500)).released.isEmpty)
        let next = sequencer.skipStalledGap(timeout: .seconds(1), now: start + .seconds(2))
        #expect(next.skipped == 5...6 && next.released.map(\.id) == [7])
        #expect(sequencer.stallDeadline(timeout: .seconds(1)) == nil)

        // What was given up on is late if it comes after all.
        #expect(sequencer.accept(events(2, 8), now: start + .seconds(3)).late == [2])
        #expect(sequencer.watermark == 8)
    }

    @Test func progressRestartsTheTimeoutOfTheNextHole() {
        var sequencer = EventSequencer(watermark: 0)
        _ = sequencer.accept(events(2, 4), now: start)
        #expect(sequencer.blockedSince == start)
        // 1 comes late but within the timeout: 1 and 2 go, and the hole at 3 is timed from now.
        let later = start + .milliseconds(800)
        #expect(sequencer.accept(events(1), now: later).released.map(\.id) == [1, 2])
        #expect(sequencer.blockedSince == later)
        #expect(sequencer.skipStalledGap(timeout: .seconds(1), now: start + .seconds(1)).released.isEmpty)
    }
}
