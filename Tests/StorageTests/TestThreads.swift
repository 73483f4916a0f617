// Threads of their own for tests of writes that block.
import Dispatch
import Foundation

/// Threads started one by one and waited for together. Threads of their own: the global queue would not start
/// that many threads that block.
final class TestThreads: Sendable {
    private let group = DispatchGroup()

    /// Starts `body` on a new thread.
    func spawn(_ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread.detachNewThread { [group] in
            body()
            group.leave()
        }
    }

    /// Waits for every thread started.
    func wait() { group.wait() }
}
