import Dispatch
import Foundation

/// An app's turn: the harness runs its code (a launch, an event's handler or callback, a `run`), then waits for
/// the work that code left on the main queue and on its launch handlers' queues. What would let the device suspend
/// the app (a run completed, a background task ended) is sent when the turn is over, as iOS suspends an app once
/// its current work has returned, not inside `setTaskCompleted` (R23): a `submit` on the next line still finds
/// the app running.
extension EmulatedApp {
    /// At most this many rounds of waiting for the queues: app code that keeps re-enqueueing itself must not hold
    /// the harness forever.
    static let drainRounds = 64

    func openTurn() {
        lock.withLock { turnDepth += 1 }
        ProcessBinding.shared.openTurn(self)
    }

    /// Waits until the main queue and the handlers' queues have run what the app's code left on them (again while
    /// that work called the app's API, which may have enqueued more), then ends the turn and sends what it kept.
    func closeTurn(isolation: isolated (any Actor)? = #isolation) async {
        var rounds = 0
        while true {
            let before = lock.withLock { activity }
            for queue in turnQueues() { await queue.drained() }
            rounds += 1
            if lock.withLock({ activity }) == before || rounds >= Self.drainRounds { break }
        }
        let kept = lock.withLock { () -> [() -> Void] in
            turnDepth -= 1
            guard turnDepth == 0 else { return [] }
            defer { releases = [] }
            return releases
        }
        ProcessBinding.shared.closeTurn(self)
        kept.forEach { $0() }
    }

    /// The main queue, then each queue a launch handler was registered with.
    private func turnQueues() -> [DispatchQueue] {
        var queues = [DispatchQueue.main]
        for queue in lock.withLock({ handlerQueues }) where !queues.contains(where: { $0 === queue }) { queues.append(queue) }
        return queues
    }

    /// Runs `call` (a completion, an `endBackgroundTask`) when the turn is over; outside a turn (app code that
    /// answers later, from a `Task`, a thread or a main-queue block), once the code that called it has returned:
    /// on the main queue after the current block, at least ``deferral`` later, as iOS suspends an app some time
    /// after its last task ends, never inside the call (a `submit` on the next line still finds the app running).
    func release(_ call: @escaping () -> Void) {
        let deferred = lock.withLock { () -> Bool in
            activity += 1
            if turnDepth > 0 {
                releases.append(call)
            } else {
                outsideReleases.append(call)
            }
            return turnDepth == 0
        }
        if deferred {
            RealTimeSleep.onMainQueue(after: Self.deferral) { [self] in sendOutsideReleases() }
        }
    }

    /// How long a completion called outside a turn waits before it is sent, and how long the app's calls of the
    /// service must have been quiet by then.
    static let deferral = Duration.milliseconds(10)
    /// At most this many more waits of ``deferral`` for the app's calls to end (2 s): code that keeps calling must
    /// not hold its completion forever.
    static let maximumOutsideWaits = 200

    /// Sends the completions called outside a turn, in order; into the current turn's when one has opened since.
    /// While a call of the app's code is under way (the `submit` on the line after `setTaskCompleted`, say, which
    /// on a loaded machine can take longer than ``deferral`` to be answered) or ended less than ``deferral`` ago,
    /// it waits again: the code that completed has not returned yet, and iOS would not have suspended it.
    func sendOutsideReleases() {
        let (due, waitAgain) = lock.withLock { () -> ([() -> Void], Bool) in
            let busy = callsInFlight > 0 || lastCallEnded.map { ContinuousClock.now - $0 < Self.deferral } == true
            if busy, outsideWaits < Self.maximumOutsideWaits, !outsideReleases.isEmpty, turnDepth == 0 {
                outsideWaits += 1
                return ([], true)
            }
            outsideWaits = 0
            defer { outsideReleases = [] }
            guard turnDepth > 0 else { return (outsideReleases, false) }
            releases.append(contentsOf: outsideReleases)
            return ([], false)
        }
        if waitAgain {
            RealTimeSleep.onMainQueue(after: Self.deferral) { [self] in sendOutsideReleases() }
            return
        }
        due.forEach { $0() }
    }

    /// The app's code called its API (to wait again for the queues it may have enqueued on).
    func noteActivity() { lock.withLock { activity += 1 } }
}
