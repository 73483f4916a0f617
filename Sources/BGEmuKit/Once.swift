import Foundation

/// A flag that answers true once, from any thread.
final class Once: @unchecked Sendable {
    // @unchecked Sendable: `done` is behind `lock`.
    private let lock = NSLock()
    private var done = false

    func first() -> Bool {
        lock.withLock {
            defer { done = true }
            return !done
        }
    }
}
