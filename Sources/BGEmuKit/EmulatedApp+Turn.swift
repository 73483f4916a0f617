import Dispatch
import Foundation

/// An app's turn: the harness runs its code (a launch, an event's handler or callback, a `run`), then waits for
/// the work that code left on the main queue and on its launch handlers' queues. What that code does to let the
/// device suspend the app (a run completed, a background task ended) is sent when the turn is over, as iOS
/// suspends an app once its current work has returned, not inside `setTaskCompleted` (R23): a `submit` on the
/// next line still finds the app running. Code the turn does not wait for (a `Task` on the cooperative pool, a
/// thread, a global queue) may call it while a turn is open — the harness dispatches every `clock.advanced` of
/// co-simulated time as a turn of each app — and is answered as outside a turn.
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
        var kept: [() -> Void]?
        while kept == nil {
            let before = lock.withLock { activity }
            for queue in turnQueues() { await queue.drained() }
            rounds += 1
            // Quiet since the round began: the turn ends, under the same lock (a release called meanwhile is
            // either seen here, and waited for, or taken as outside a turn).
            kept = lock.withLock { () -> [() -> Void]? in
                guard activity == before || rounds >= Self.drainRounds else { return nil }
                turnDepth -= 1
                guard turnDepth == 0 else { return [] }
                defer { releases = [] }
                return releases
            }
        }
        ProcessBinding.shared.closeTurn(self)
        kept?.forEach { $0() }
    }

    /// Runs `body`, app code the harness calls synchronously in a turn (an event's handler or callback, a launch
    /// closure, a `run`), with the calling thread marked as the turn's own while it runs.
    func asTurnCode<T>(_ body: () throws -> T) rethrows -> T {
        let dictionary = Thread.current.threadDictionary
        let depth = dictionary[Self.turnCodeKey] as? Int ?? 0
        dictionary[Self.turnCodeKey] = depth + 1
        defer { dictionary[Self.turnCodeKey] = depth == 0 ? nil : depth }
        return try body()
    }

    private static let turnCodeKey = "BGEmuKit.turnCode"
    /// Set on the queues launch handlers were registered with: code on them is code a turn waits for.
    static let handlerQueueKey = DispatchSpecificKey<Bool>()

    /// Whether the calling code is code the turn waits for before it ends: the harness's own call of app code,
    /// the main queue (the main actor; after `dispatchMain` a thread of the pool runs it, not the main thread),
    /// the main thread, or a launch handler's queue. Not a `Task` on the cooperative pool, a thread of the app's
    /// own or a global queue: the turn may end while such code is still on its way to the next line.
    static var callerIsTurnCode: Bool {
        MainQueue.isCurrent || Thread.isMainThread || Thread.current.threadDictionary[turnCodeKey] != nil
            || DispatchQueue.getSpecific(key: handlerQueueKey) == true
    }

    /// The main queue, then each queue a launch handler was registered with.
    private func turnQueues() -> [DispatchQueue] {
        var queues = [DispatchQueue.main]
        for queue in lock.withLock({ handlerQueues }) where !queues.contains(where: { $0 === queue }) { queues.append(queue) }
        return queues
    }

    /// Runs `call` (a completion, an `endBackgroundTask`) when the turn is over, when code the turn waits for
    /// calls it (``callerIsTurnCode``); else (app code that answers later, from a `Task`, a thread or a main-queue
    /// block, whether or not a turn is open meanwhile), once the code that called it has returned: on the main
    /// queue after the current block, at least ``deferral`` later, as iOS suspends an app some time after its last
    /// task ends, never inside the call (a `submit` on the next line still finds the app running).
    func release(_ call: @escaping () -> Void) {
        let ofTheTurn = Self.callerIsTurnCode
        let deferred = lock.withLock { () -> Bool in
            activity += 1
            if turnDepth > 0 && ofTheTurn {
                releases.append(call)
                return false
            }
            outsideReleases.append(call)
            return true
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

    /// Sends the completions called outside a turn, in order; into the current turn's when one is open then.
    /// While a call of the app's code is under way (the `submit` on the line after `setTaskCompleted`, say, which
    /// on a loaded machine can take longer than ``deferral`` to be answered) or ended less than ``deferral`` ago,
    /// it waits again, whether or not a turn is open (that turn could end before the call is answered): the code
    /// that completed has not returned yet, and iOS would not have suspended it.
    func sendOutsideReleases() {
        let (due, waitAgain) = lock.withLock { () -> ([() -> Void], Bool) in
            let busy = callsInFlight > 0 || lastCallEnded.map { ContinuousClock.now - $0 < Self.deferral } == true
            if busy, outsideWaits < Self.maximumOutsideWaits, !outsideReleases.isEmpty {
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
