// A value behind a plain pthread mutex.
import Foundation

/// A value behind `NSLock` (a plain pthread mutex), with `Mutex`'s `withLock` shape. For a lock that many threads
/// take at once for a moment: the standard library's `Mutex` is a priority-inheritance futex on Linux, which spins
/// and then asks the kernel on every contended acquisition. A group commit wakes its ten writers together and each
/// publishes its events at once; on the event hub's lock that cost 8 % of the workers' CPU in a flood of writes.
// @unchecked Sendable: `value` is only touched with `lock` held.
final class PlainLock<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
