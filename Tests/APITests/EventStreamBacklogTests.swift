import Emulation
import Foundation
import HTTPServer
import Logging
import Testing
@testable import API
import Stores

/// A stream's unsent backlog is bounded: a replay is paced to the client within it, however long the history; a live
/// stream whose next event does not fit catches up from the store at the client's pace; a client disconnected for
/// falling behind resumes with `Last-Event-ID` without a loss.
@Suite struct EventStreamBacklogTests {
    let store = MemoryEventStore()

    private func hub(_ store: any EventStore) -> EventHub {
        EventHub(store: store, retryMilliseconds: 1500, logger: Logger(label: "test.hub"))
    }

    private func open(_ hub: EventHub, tenant: String, after lastEventId: Int64?, writer: any HTTPStreamWriter) {
        let response = hub.stream(tenantId: tenant, filter: EventFilter(), lastEventId: lastEventId)
        guard case .stream(let stream) = response.body else {
            Issue.record("not a stream")
            return
        }
        stream.start(writer)
    }

    @discardableResult
    private func commit(_ hub: EventHub, tenant: String, count: Int, prefix: String = "e") -> [RecordedEvent] {
        let recorded = store.record(
            tenantId: tenant, deviceId: "dev", (0..<count).map { testEvent("\(prefix).\($0)", data: ["n": .int(Int64($0))]) })
        hub.publish(recorded)
        return recorded
    }

    @Test func aReplayOfAHistoryFarLargerThanTheBacklogBoundReachesASlowReaderWholeInOrderAndWithinTheBound() {
        let hub = hub(store)
        for _ in 0..<40 { commit(hub, tenant: "a", count: 500) }  // 20,000 events, about 200 bytes each on the wire
        let limit = 16 * 1024
        let writer = SlowClientStreamWriter(backlogLimit: limit)
        open(hub, tenant: "a", after: 0, writer: writer)
        // Live events committed while the replay runs: handed over without a gap or a repeat.
        let committer = Thread {
            for _ in 0..<100 {
                self.commit(hub, tenant: "a", count: 1, prefix: "live")
                Thread.sleep(forTimeInterval: 0.002)
            }
        }
        committer.start()
        #expect(writer.readSlowly(chunk: 1024) { $0.hasRead(eventId: 20_100) })
        #expect(writer.eventIds == Array(1...20_100))
        #expect(writer.largestBacklog <= limit)
        #expect(!writer.fellBehind)
        // The stream went live after the replay.
        commit(hub, tenant: "a", count: 1, prefix: "after")
        #expect(writer.readSlowly(chunk: 1024, timeout: .seconds(10)) { $0.hasRead(eventId: 20_101) })
        #expect(writer.eventIds == Array(1...20_101))
        #expect(hub.subscriberCount == 1)
    }

    /// The route let the stream in (nothing pruned after its Last-Event-ID then), but the pruner ran before the
    /// replay reached those events: the stream ends instead of skipping them, and the resume is then a 410.
    @Test func aReplayThatFindsItsNextEventsPrunedEndsTheStreamInsteadOfSkippingThem() {
        let hub = hub(store)
        commit(hub, tenant: "a", count: 50)
        hub.watchPruning { _, _ in PrunedEvents(lastPrunedId: 20, oldestHeldId: 21) }
        let writer = SlowClientStreamWriter(backlogLimit: 64 * 1024)
        open(hub, tenant: "a", after: 5, writer: writer)
        #expect(writer.readSlowly(chunk: 4096, timeout: .seconds(5)) { !$0.isOpen })
        #expect(writer.eventIds.isEmpty, "events 6…20 are gone: nothing after 5 may be sent as if they were not")
        // Resuming after the pruned range replays what is held.
        let resumed = SlowClientStreamWriter(backlogLimit: 64 * 1024)
        open(hub, tenant: "a", after: 20, writer: resumed)
        #expect(resumed.readSlowly(chunk: 4096) { $0.hasRead(eventId: 50) })
        #expect(resumed.eventIds == Array(21...50))
    }

    @Test func aReplayPausedForASlowReaderHoldsNoMoreThanHalfTheBound() {
        let hub = hub(store)
        for _ in 0..<4 { commit(hub, tenant: "a", count: 500) }
        let limit = 16 * 1024
        let writer = SlowClientStreamWriter(backlogLimit: limit)
        open(hub, tenant: "a", after: 0, writer: writer)
        // The client reads nothing: the replay stops at half the bound and waits, the stream stays open.
        #expect(RecordingStreamWriter().wait(timeout: .seconds(5)) { _ in writer.backlog > limit / 4 })
        Thread.sleep(forTimeInterval: 0.2)
        #expect(writer.backlog <= limit / 2)
        #expect(writer.isOpen)
        #expect(writer.readSlowly(chunk: 4096) { $0.hasRead(eventId: 2000) })
        #expect(writer.eventIds == Array(1...2000))
    }

    /// A live stream whose client reads the first 10 events, then stops while 2,000 more are committed in bursts.
    private func liveStreamThatStopsReading(_ hub: EventHub, limit: Int) -> SlowClientStreamWriter {
        let writer = SlowClientStreamWriter(backlogLimit: limit)
        open(hub, tenant: "a", after: nil, writer: writer)
        commit(hub, tenant: "a", count: 10)
        #expect(writer.readSlowly(chunk: 4096, timeout: .seconds(5)) { $0.hasRead(eventId: 10) })
        for _ in 0..<20 { commit(hub, tenant: "a", count: 100) }
        #expect(RecordingStreamWriter().wait(timeout: .seconds(5)) { _ in writer.backlog > limit / 2 })
        Thread.sleep(forTimeInterval: 0.2)
        return writer
    }

    @Test func aLiveStreamWhoseClientStopsReadingHoldsNoMoreThanTheBoundAndCatchesUpFromTheStore() {
        let hub = hub(store)
        let limit = 16 * 1024
        let writer = liveStreamThatStopsReading(hub, limit: limit)
        #expect(writer.largestBacklog <= limit)
        #expect(writer.isOpen && !writer.fellBehind, "the hub paces the stream: only the server closes a stalled one")
        // The client reads again: it gets every event once, in order, from the store, then live ones.
        #expect(writer.readSlowly(chunk: 2048) { $0.hasRead(eventId: 2010) })
        commit(hub, tenant: "a", count: 1, prefix: "after")
        #expect(writer.readSlowly(chunk: 2048, timeout: .seconds(10)) { $0.hasRead(eventId: 2011) })
        #expect(writer.eventIds == Array(1...2011))
        #expect(writer.largestBacklog <= limit)
    }

    @Test func aStreamDisconnectedForFallingBehindResumesWithLastEventIdWithoutALoss() {
        let hub = hub(store)
        let writer = liveStreamThatStopsReading(hub, limit: 16 * 1024)
        // The server closes the stalled stream (as after its idle timeout); the hub forgets it.
        writer.disconnect()
        #expect(RecordingStreamWriter().wait { _ in hub.subscriberCount == 0 })
        commit(hub, tenant: "a", count: 10)
        // The client resumes after the last event it read whole, and gets every later one once, in order.
        let lastRead = writer.eventIds.last ?? 0
        let resumed = RecordingStreamWriter()
        open(hub, tenant: "a", after: lastRead, writer: resumed)
        #expect(resumed.wait { $0.eventIds.last == 2020 })
        #expect(writer.eventIds + resumed.eventIds == Array(1...2020))
    }
}
