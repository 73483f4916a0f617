import Emulation
import Foundation
import Logging
import Synchronization
import Testing
@testable import API
import Stores

/// A tenant's streams share a budget of bytes a second: past it they catch up from the log as it refills, losing
/// nothing, and another tenant's streams are not slowed.
@Suite struct StreamBudgetTests {
    final class ManualNanoseconds: Sendable {
        let now = Mutex<UInt64>(1_000_000_000)
        var function: @Sendable () -> UInt64 { { [self] in now.withLock { $0 } } }
        func advance(seconds: Double) { now.withLock { $0 += UInt64(seconds * 1e9) } }
    }

    @Test func theBudgetGivesItsRateASecondAndRefillsWithTime() {
        let clock = ManualNanoseconds()
        let budget = StreamBudget(bytesPerSecond: 1_000, clock: clock.function)
        #expect(budget.take(600))
        #expect(budget.take(400))
        #expect(!budget.take(1))
        #expect(budget.wait(for: 100) == .milliseconds(100))
        clock.advance(seconds: 0.1)
        #expect(budget.take(100))
        #expect(!budget.take(1))
        clock.advance(seconds: 10)
        #expect(budget.take(1_000) && !budget.take(1), "it holds one second at most")
    }

    @Test func anEventLargerThanTheWholeBudgetGoesWhenTheBudgetIsFull() {
        let clock = ManualNanoseconds()
        let budget = StreamBudget(bytesPerSecond: 100, clock: clock.function)
        #expect(budget.take(5_000))
        #expect(!budget.take(5_000))
        clock.advance(seconds: 60)
        #expect(budget.take(5_000))
    }

    private func open(_ hub: EventHub, tenant: String, writer: SlowClientStreamWriter) {
        let response = hub.stream(tenantId: tenant, filter: EventFilter(), lastEventId: nil)
        guard case .stream(let stream) = response.body else {
            Issue.record("not a stream")
            return
        }
        stream.start(writer)
    }

    @Test func aTenantsStreamsPastItsBudgetCatchUpLosingNothingWhileAnotherTenantsStreamIsServedAtOnce() {
        let store = MemoryEventStore()
        let rate = 100_000
        let hub = EventHub(store: store, streamBytesPerSecondPerTenant: rate, logger: Logger(label: "test.hub"))
        let flooding = [SlowClientStreamWriter(backlogLimit: 64 * 1024), SlowClientStreamWriter(backlogLimit: 64 * 1024)]
        for writer in flooding { open(hub, tenant: "a", writer: writer) }
        let quiet = SlowClientStreamWriter(backlogLimit: 64 * 1024)
        open(hub, tenant: "b", writer: quiet)
        // 1,000 events of ~250 bytes for each of a's two streams: ~500 KB, five seconds of a's budget.
        let started = ContinuousClock.now
        let recorded = store.record(tenantId: "a", deviceId: "dev", (0..<1_000).map { testEvent("a.\($0)", data: ["n": .int(Int64($0))]) })
        hub.publish(recorded)
        let bOnes = store.record(tenantId: "b", deviceId: "dev", [testEvent("b.0")])
        hub.publish(bOnes)
        // Behind a's budget, b's event would wait the five seconds a's bytes take: it comes well before.
        #expect(quiet.readSlowly(chunk: 1 << 16, timeout: .seconds(4)) { $0.hasRead(eventId: bOnes[0].id) })
        #expect(ContinuousClock.now - started < .seconds(4), "b is not held back by a's budget")
        // Half a second in, a's streams have been sent about their budget: one second's burst and what refilled.
        _ = flooding[0].readSlowly(chunk: 1 << 16, timeout: .milliseconds(500)) { _ in false }
        let sentSoFar = flooding.map { $0.parsed.events.count * 250 }.reduce(0, +)
        #expect(sentSoFar <= 3 * rate, "sent \(sentSoFar) bytes within half a second at \(rate) bytes/s")
        // And everything arrives, in order, once each.
        let last = recorded.last!.id
        for writer in flooding {
            #expect(writer.readSlowly(chunk: 1 << 16, timeout: .seconds(20)) { $0.hasRead(eventId: last) })
            #expect(writer.eventIds == recorded.map(\.id))
        }
    }
}
