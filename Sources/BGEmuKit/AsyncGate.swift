import Foundation

/// A mutex awaited rather than blocked on: one harness call at a time per device, while the calls await the app's
/// queues between the events they dispatch.
///
/// `@unchecked Sendable`: its state is behind `lock`.
final class AsyncGate: @unchecked Sendable {
    private let lock = NSLock()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Returns once the gate is the caller's; callers get it in the order they asked.
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let free = lock.withLock { () -> Bool in
                if held {
                    waiting.append(continuation)
                    return false
                }
                held = true
                return true
            }
            if free { continuation.resume() }
        }
    }

    /// Hands the gate to the next caller waiting, or frees it.
    func leave() {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            if waiting.isEmpty {
                held = false
                return nil
            }
            return waiting.removeFirst()
        }
        next?.resume()
    }
}
