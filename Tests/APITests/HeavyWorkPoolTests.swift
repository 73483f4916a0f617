import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Service

/// Issue 26 (defect 3): the heavy part of requests runs on a pool of its own, each tenant's jobs one at a time and
/// the tenants in turn, on threads of the lowest scheduling class, with a bounded queue and a bounded wait.
@Suite struct HeavyWorkPoolTests {
    /// A job that holds its pool thread until released, and says when it started.
    final class Blocker: Sendable {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        func body() { started.signal(); release.wait() }
    }

    /// The order jobs ran in.
    final class Order: Sendable {
        private let names = Mutex<[String]>([])
        func append(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    /// Runs `work` for `tenant` on a thread of its own, recording its name in `order` when it runs.
    static func submit(
        _ pool: HeavyWorkPool, _ tenant: String, _ name: String, _ order: Order, done: DispatchGroup,
        work: @escaping @Sendable () -> Void = {}
    ) {
        done.enter()
        Thread.detachNewThread {
            _ = try? pool.run(tenant: tenant) {
                order.append(name)
                work()
            }
            done.leave()
        }
    }

    static func waitUntil(_ condition: () -> Bool) {
        for _ in 0..<20_000 where !condition() { usleep(500) }
    }

    @Test func aTenantsJobsRunOneAtATimeAndTheTenantsTakeTurns() {
        let pool = HeavyWorkPool(threads: 1, maximumQueuedPerTenant: 8)
        pool.start()
        defer { pool.stop() }
        let order = Order()
        let done = DispatchGroup()
        let first = Blocker()
        Self.submit(pool, "a", "a1", order, done: done, work: first.body)
        first.started.wait()
        Self.submit(pool, "a", "a2", order, done: done)
        Self.waitUntil { pool.load(of: "a") == 2 }
        Self.submit(pool, "a", "a3", order, done: done)
        Self.waitUntil { pool.load(of: "a") == 3 }
        Self.submit(pool, "b", "b1", order, done: done)
        Self.waitUntil { pool.load(of: "b") == 1 }
        first.release.signal()
        done.wait()
        // b1 came after a2 and a3, yet runs before them: a's turn ended with a1.
        #expect(order.all == ["a1", "b1", "a2", "a3"])
    }

    @Test func aTenantsSecondJobWaitsWhileAnotherProcessorIsFree() {
        let pool = HeavyWorkPool(threads: 2, maximumQueuedPerTenant: 8)
        pool.start()
        defer { pool.stop() }
        let order = Order()
        let done = DispatchGroup()
        let first = Blocker()
        Self.submit(pool, "a", "a1", order, done: done, work: first.body)
        first.started.wait()
        Self.submit(pool, "a", "a2", order, done: done)
        Self.waitUntil { pool.load(of: "a") == 2 }  // a2 queued (submit starts a thread of its own) before b1 is
        let other = DispatchGroup()
        Self.submit(pool, "b", "b1", order, done: other)
        other.wait()  // b runs on the free thread; a2 does not
        #expect(order.all == ["a1", "b1"])
        #expect(pool.load(of: "a") == 2)
        first.release.signal()
        done.wait()
        #expect(order.all == ["a1", "b1", "a2"])
    }

    @Test func aTenantPastItsShareIsRefused() throws {
        let pool = HeavyWorkPool(threads: 1, maximumQueuedPerTenant: 2)
        pool.start()
        defer { pool.stop() }
        let order = Order()
        let done = DispatchGroup()
        let first = Blocker()
        Self.submit(pool, "a", "a1", order, done: done, work: first.body)
        first.started.wait()
        Self.submit(pool, "a", "a2", order, done: done)
        Self.waitUntil { pool.load(of: "a") == 2 }
        #expect(throws: HeavyWorkBusy(reason: .tooMany(2), retryAfterSeconds: 1)) { try pool.run(tenant: "a") { 1 } }
        // Another tenant's share is its own.
        let other = DispatchGroup()
        Self.submit(pool, "b", "b1", order, done: other)
        first.release.signal()
        done.wait()
        other.wait()
        #expect(Set(order.all) == ["a1", "a2", "b1"])
    }

    @Test func aJobThatCannotStartInTimeIsAbandonedAndNeverRuns() throws {
        let pool = HeavyWorkPool(threads: 1, startTimeout: .milliseconds(50))
        pool.start()
        defer { pool.stop() }
        let order = Order()
        let done = DispatchGroup()
        let first = Blocker()
        Self.submit(pool, "a", "a1", order, done: done, work: first.body)
        first.started.wait()
        #expect(throws: HeavyWorkBusy(reason: .waitedTooLong, retryAfterSeconds: 5)) {
            try pool.run(tenant: "b") { order.append("b1") }
        }
        #expect(pool.load(of: "b") == 0)
        first.release.signal()
        done.wait()
        #expect(try pool.run(tenant: "c") { 42 } == 42)
        #expect(order.all == ["a1"])
    }

    @Test func aJobsErrorReachesItsCaller() {
        struct Failure: Error, Equatable {}
        let pool = HeavyWorkPool(threads: 1)
        pool.start()
        defer { pool.stop() }
        #expect(throws: Failure()) { try pool.run(tenant: "a") { () throws -> Int in throw Failure() } }
    }

    #if os(Linux)
    @Test func theThreadsRunInTheIdleSchedulingClass() throws {
        let pool = HeavyWorkPool(threads: 1)
        pool.start()
        defer { pool.stop() }
        #expect(pool.schedulingClass == "SCHED_IDLE")
        #expect(try pool.run(tenant: "a") { LowPriority.currentPolicy() } == LowPriority.schedIdle)
        #expect(LowPriority.currentPolicy() == 0)  // SCHED_OTHER: the caller's own thread is untouched
    }
    #endif
}
