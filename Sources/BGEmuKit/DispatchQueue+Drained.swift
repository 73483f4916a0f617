import Dispatch

extension DispatchQueue {
    /// Returns once the blocks enqueued on this queue before the call have run (a serial queue runs them in order;
    /// the main queue runs while the caller awaits, even on the main actor).
    func drained() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            async { continuation.resume() }
        }
    }

    /// Runs `call` on this queue and returns once it has run.
    func run(_ call: QueuedCall) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            async {
                call.body()
                continuation.resume()
            }
        }
    }
}

/// App code to run on a queue while the harness waits for it (a launch handler registered with a queue).
///
/// `@unchecked Sendable`: the harness hands it to one queue and awaits its end before touching anything it captured.
struct QueuedCall: @unchecked Sendable {
    let body: () -> Void
}
