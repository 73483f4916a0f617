import Foundation

/// Which tenants' writes are fenced for a move (issue 30), and the writes in flight of each.
///
/// A write enters (``enter(_:)``) before it changes anything and leaves when answered; a fenced tenant's write is
/// refused instead. ``fence(_:timeout:)`` fences and then waits until the tenant's writes in flight have left, so
/// that what is read after it returns holds every write acknowledged before the fence, and no later one. Other
/// tenants never wait: the counts are per tenant, under one short lock.
// @unchecked Sendable: `fenced` and `inFlight` are only touched with `condition` locked.
public final class TenantFences: @unchecked Sendable {
    private let condition = NSCondition()
    private var fenced: Set<String>
    private var inFlight: [String: Int] = [:]

    /// - Parameter fenced: the tenants fenced when the service starts (the store's).
    public init(fenced: some Sequence<String> = []) {
        self.fenced = Set(fenced)
    }

    /// Lets a write of `tenantId` in: false when the tenant is fenced. Every `true` must be followed by
    /// ``leave(_:)``.
    public func enter(_ tenantId: String) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !fenced.contains(tenantId) else { return false }
        inFlight[tenantId, default: 0] += 1
        return true
    }

    /// A write let in by ``enter(_:)`` is done.
    public func leave(_ tenantId: String) {
        condition.lock()
        defer { condition.unlock() }
        let left = (inFlight[tenantId] ?? 1) - 1
        inFlight[tenantId] = left > 0 ? left : nil
        if left <= 0 { condition.broadcast() }
    }

    /// Fences the tenant's writes, then waits up to `timeout` seconds for those in flight to finish; answers how
    /// many are still in flight (0: the fence holds and nothing is being written).
    public func fence(_ tenantId: String, timeout: TimeInterval) -> Int {
        condition.lock()
        defer { condition.unlock() }
        fenced.insert(tenantId)
        let deadline = Date().addingTimeInterval(timeout)
        while let count = inFlight[tenantId], count > 0 {
            if !condition.wait(until: deadline) { return inFlight[tenantId] ?? 0 }
        }
        return 0
    }

    /// Lifts the fence (idempotent).
    public func unfence(_ tenantId: String) {
        condition.lock()
        defer { condition.unlock() }
        fenced.remove(tenantId)
    }

    /// Whether the tenant's writes are fenced.
    public func isFenced(_ tenantId: String) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return fenced.contains(tenantId)
    }

    /// Whether any tenant is fenced: when none is (all but the moment of a move), a write's head needs no lookup of
    /// its tenant to be judged.
    public var anyFenced: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !fenced.isEmpty
    }

    /// The tenant's writes in flight.
    public func writesInFlight(_ tenantId: String) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return inFlight[tenantId] ?? 0
    }
}
