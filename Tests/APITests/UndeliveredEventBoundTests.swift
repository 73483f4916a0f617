import Emulation
import Foundation
import HTTPServer
import Logging
import Synchronization
import Testing
@testable import API
import Stores

/// Events committed faster than the hub fans them out wait in its outbox; the outbox is bounded, and a stream whose
/// events were dropped from it catches up from the store, missing none and repeating none. Unbounded, 30 s of
/// advances with 100 unread streams held some 150 MiB of events there. With no stream open the hub keeps no event.
@Suite struct UndeliveredEventBoundTests {
    let store = MemoryEventStore()

    private func open(_ hub: EventHub, writer: any HTTPStreamWriter) {
        guard case .stream(let stream) = hub.stream(tenantId: "a", filter: EventFilter(), lastEventId: nil).body else {
            Issue.record("not a stream")
            return
        }
        stream.start(writer)
    }

    private func commit(_ hub: EventHub, count: Int) {
        hub.publish(store.record(tenantId: "a", deviceId: "dev", (0..<count).map { testEvent("e.\($0)") }))
    }

    @Test func aDeliveryThatFallsBehindHoldsAtMostItsBoundAndItsStreamsCatchUpFromTheStoreWithoutAGapOrARepeat() {
        let hub = EventHub(store: store, maximumUndeliveredEvents: 100, logger: Logger(label: "test.hub"))
        defer { hub.stop() }
        let stuck = GatedStreamWriter()
        let other = RecordingStreamWriter()
        open(hub, writer: stuck)
        open(hub, writer: other)
        #expect(other.wait { _ in hub.subscriberCount == 2 })
        // The delivery thread blocks in the first event's write to `stuck`; 1,000 more are committed meanwhile.
        commit(hub, count: 1)
        #expect(stuck.waitUntilBlocked())
        for _ in 0..<20 { commit(hub, count: 50) }
        #expect(hub.largestUndelivered <= 100, "the outbox held \(hub.largestUndelivered) events")
        stuck.release()
        #expect(stuck.recorded.wait { $0.eventIds.last == 1001 })
        #expect(stuck.recorded.eventIds == Array(1...1001))
        #expect(other.wait { $0.eventIds.last == 1001 })
        #expect(other.eventIds == Array(1...1001))
        // Both are live again.
        commit(hub, count: 1)
        #expect(other.wait { $0.eventIds.last == 1002 })
        #expect(stuck.recorded.wait { $0.eventIds.last == 1002 })
    }

    @Test func theLastStreamToCloseTakesTheEncodedEventsWithIt() {
        let hub = EventHub(store: store, logger: Logger(label: "test.hub"))
        defer { hub.stop() }
        let first = RecordingStreamWriter(), second = RecordingStreamWriter()
        open(hub, writer: first)
        open(hub, writer: second)
        #expect(first.wait { _ in hub.subscriberCount == 2 })
        commit(hub, count: 50)
        #expect(second.wait { $0.eventIds.last == 50 })
        #expect(hub.encodedEvents.count == 50)
        first.disconnect()
        #expect(first.wait { _ in hub.subscriberCount == 1 })
        #expect(hub.encodedEvents.count == 50, "a stream is still open: the events stay encoded for it")
        second.disconnect()
        #expect(second.wait { _ in hub.subscriberCount == 0 })
        #expect(hub.encodedEvents.count == 0)
    }
}

/// A writer whose first event write blocks the writing thread (the hub's delivery) until ``release()``; records
/// everything, as ``RecordingStreamWriter``.
final class GatedStreamWriter: HTTPStreamWriter {
    let recorded = RecordingStreamWriter()
    private let blocked = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let state = Mutex((eventWrites: 0, released: false))

    func write(_ bytes: [UInt8]) -> Bool {
        let first = state.withLock { state -> Bool in
            guard bytes.starts(with: Array("id:".utf8)) else { return false }
            state.eventWrites += 1
            return state.eventWrites == 1 && !state.released
        }
        if first {
            blocked.signal()
            gate.wait()
        }
        return recorded.write(bytes)
    }

    /// Waits until a write is blocked.
    func waitUntilBlocked() -> Bool { blocked.wait(timeout: .now() + 10) == .success }

    func release() {
        state.withLock { $0.released = true }
        gate.signal()
    }

    func finish() { recorded.finish() }
    var isOpen: Bool { recorded.isOpen }
    func onClose(_ handler: @escaping @Sendable () -> Void) { recorded.onClose(handler) }
}
