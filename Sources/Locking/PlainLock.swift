import Foundation

/// A value behind `NSLock` (a plain pthread mutex), with `Mutex`'s `withLock` shape: the lock of the hot paths,
/// which many threads take at once for a moment.
///
/// The standard library's `Mutex` is a priority-inheritance futex on Linux: a contended acquisition spins briefly,
/// then goes to the kernel's `rt_mutex` (`FUTEX_LOCK_PI`), which hands the lock over one waiter at a time and
/// makes every waiter sleep and wake in turn. A group commit wakes its ten writers together and each takes the
/// same few locks at once (the event hub's, the device's, the worker queue's): behind `Mutex` the event hub's lock
/// alone cost 8 % of the workers' CPU in a flood of writes, 1 % behind this one.
// @unchecked Sendable: `value` is only touched with `lock` held.
public final class PlainLock<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
