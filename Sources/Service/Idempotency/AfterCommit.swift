import Locking

/// Work that must wait until an enclosing transaction commits: publishing the events of a write made inside an
/// idempotent request's transaction, which may still roll back. Outside such a transaction the work runs at once.
public final class AfterCommit: Sendable {
    /// The actions of the transaction the current thread is in, if any.
    @TaskLocal public static var current: AfterCommit?

    private let actions = PlainLock<[@Sendable () -> Void]>([])

    public init() {}

    /// Runs `action` now, or after the enclosing transaction commits (never if it rolls back).
    public static func run(_ action: @escaping @Sendable () -> Void) {
        guard let current else { return action() }
        current.actions.withLock { $0.append(action) }
    }

    /// Runs the deferred actions in the order they came, once the transaction committed.
    public func runAll() {
        for action in actions.withLock({ actions in defer { actions = [] }; return actions }) { action() }
    }
}
