import Locking

/// The (tenant, key) pairs whose first request is running now. Handlers run synchronously on event loop threads
/// and an idempotent request holds its key from before it looks for a stored answer until after its transaction
/// committed, so a pair held here is exactly one request in this process still working: a retry meanwhile is a
/// `409`. Memory is enough: after a crash nothing is in flight, and what committed is in the store.
public final class InFlightKeys: Sendable {
    private let held = PlainLock<Set<String>>([])

    public init() {}

    /// Takes the tenant's key; false when a request holds it already.
    public func claim(tenantId: String, key: String) -> Bool {
        held.withLock { $0.insert(Self.name(tenantId, key)).inserted }
    }

    /// Gives the key back.
    public func release(tenantId: String, key: String) {
        _ = held.withLock { $0.remove(Self.name(tenantId, key)) }
    }

    // Tenant ids hold no NUL, so the pair maps to one name.
    private static func name(_ tenantId: String, _ key: String) -> String { tenantId + "\u{0}" + key }
}
