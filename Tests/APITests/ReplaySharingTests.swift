import Emulation
import Foundation
import Logging
import Synchronization
import Testing
@testable import API
import Stores

/// Many streams of one tenant catching up under its stream budget share the work: each reads pages worth reading
/// (not one event per query), waits for its share of the refill instead of all waking at once, and every event is
/// encoded once for all of them. Nothing is lost or repeated.
@Suite struct ReplaySharingTests {
    /// An event store that counts its reads and the events they answered.
    final class CountingEventStore: EventStore {
        let inner: any EventStore
        private let counts = Mutex((reads: 0, events: 0))

        init(_ inner: any EventStore) { self.inner = inner }

        var reads: Int { counts.withLock { $0.reads } }
        var eventsRead: Int { counts.withLock { $0.events } }

        func events(tenantId: String, filter: EventFilter, afterId: Int64, limit: Int) throws -> [RecordedEvent] {
            let page = try inner.events(tenantId: tenantId, filter: filter, afterId: afterId, limit: limit)
            counts.withLock {
                $0.reads += 1
                $0.events += page.count
            }
            return page
        }

        func eventsNewestFirst(
            tenantId: String, filter: EventFilter, afterId: Int64, beforeId: Int64?, limit: Int
        ) throws -> [RecordedEvent] {
            try inner.eventsNewestFirst(tenantId: tenantId, filter: filter, afterId: afterId, beforeId: beforeId, limit: limit)
        }

        func latestEventId() throws -> Int64 { try inner.latestEventId() }
    }

    @Test func streamsCatchingUpUnderTheirBudgetReadWholePagesAndGetEveryEventOnce() throws {
        let memory = MemoryEventStore()
        let store = CountingEventStore(memory)
        // 32 streams share 200 KB/s; 400 events of ~250 bytes each, for each of them: ~3.2 MB, 16 s of budget
        // if every stream were sent everything, so the streams catch up from the store for most of it.
        let hub = EventHub(store: store, streamBytesPerSecondPerTenant: 200_000, logger: Logger(label: "test.hub"))
        let writers = (0..<32).map { _ in SlowClientStreamWriter(backlogLimit: 64 * 1024) }
        for writer in writers {
            guard case .stream(let stream) = hub.stream(tenantId: "a", filter: EventFilter(), lastEventId: nil).body else {
                Issue.record("not a stream")
                return
            }
            stream.start(writer)
        }
        let recorded = memory.record(
            tenantId: "a", deviceId: "dev", (0..<400).map { testEvent("a.\($0)", data: ["n": .int(Int64($0))]) })
        hub.publish(recorded)
        let last = recorded.last!.id
        for writer in writers {
            #expect(writer.readSlowly(chunk: 1 << 16, timeout: .seconds(60)) { $0.hasRead(eventId: last) })
            #expect(writer.eventIds == recorded.map(\.id))
        }
        // One event per read would be thousands of reads; pages worth reading are a few per stream.
        let reads = store.reads, perRead = Double(store.eventsRead) / Double(max(1, reads))
        #expect(reads > 0)
        #expect(perRead >= 8, "\(reads) reads of \(store.eventsRead) events: \(perRead) per read")
        // Each event encoded once, then taken from the cache by every stream.
        #expect(hub.encodedEvents.count >= recorded.count)
    }

    @Test func theEncodedEventCacheKeepsTheLatestWindowAndNoMore() {
        let cache = EncodedEventCache(window: 100)
        for id in Int64(1)...10_000 { cache.keep([UInt8(id % 256)], of: id) }
        #expect(cache.count <= 200)
        #expect(cache.bytes(of: 10_000) == [UInt8(10_000 % 256)])
        #expect(cache.bytes(of: 9_950) != nil)
        #expect(cache.bytes(of: 9_000) == nil)
        cache.keep([1], of: 5)  // older than the window: not kept
        #expect(cache.bytes(of: 5) == nil)
    }

    @Test func aReplayWaitsForItsShareOfTheRefillWhenOthersWait() {
        let clock = StreamBudgetTests.ManualNanoseconds()
        let budget = StreamBudget(bytesPerSecond: 1_000, clock: clock.function)
        #expect(budget.take(1_000))
        #expect(budget.replayWait(for: 100) == .milliseconds(100))
        let others = (0..<4).map { _ in budget.startWaiting() }
        // Four others wait: a fifth waits for four shares of the refill.
        #expect(budget.replayWait(for: 100) == .milliseconds(400))
        others.forEach { $0() }
        #expect(budget.replayWait(for: 100) == .milliseconds(100))
        clock.advance(seconds: 1)
        #expect(budget.replayWait(for: 100) == .zero)
    }
}
