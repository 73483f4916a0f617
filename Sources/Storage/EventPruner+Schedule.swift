// Running the pruner on a timer, off the request path.
import Dispatch
import Foundation

extension EventPruner {
    /// Prunes now and then every `interval` on a utility thread of its own (passes never overlap), until ``stop()``.
    /// `onPass` hears each pass that pruned something, or its error (the next pass tries again). Does nothing when
    /// the retention keeps everything, or when the timer runs already.
    public func start(every interval: Duration, onPass: @escaping @Sendable (Result<Report, any Error>) -> Void) {
        guard !retention.keepsEverything,
            running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        stopping.store(false, ordering: .relaxed)
        let (seconds, attoseconds) = interval.components
        let nanoseconds = max(1_000_000, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        let thread = Thread { [self] in
            while !stopping.load(ordering: .relaxed) {
                do {
                    let report = try prune()
                    if report.events > 0 { onPass(.success(report)) }
                } catch {
                    onPass(.failure(error))
                }
                _ = wakeUp.wait(timeout: .now() + .nanoseconds(nanoseconds))
            }
            running.store(false, ordering: .releasing)
        }
        thread.name = "bgemu.event-pruner"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// Stops the timer, and a pass in progress after its current batch.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        wakeUp.signal()
    }
}
