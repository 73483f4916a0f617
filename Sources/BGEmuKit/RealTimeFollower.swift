import Foundation

/// Real time elapsed and not yet applied to the device's clock while it follows real time, read from the monotonic
/// clock; shared by the harness's loop and the app's own threads.
///
/// The harness catches the clock up once a step (``step(now:limit:)``). App code that calls the system while the
/// harness sleeps between two steps — a completion after a network answer, on a thread or a `Task` of its own —
/// catches it up first (``catchUp(_:)``), so that its call is stamped at the real time it was made, not at the last
/// step, which on a loaded machine can lie far behind. Code the harness runs itself never sees a step open, so a
/// completion inside its handler reads no real time.
///
/// `@unchecked Sendable`: the state is behind `lock`, which a catch-up holds while it advances the clock, so that
/// the harness's advances and the app's are one after the other.
final class RealTimeFollower: @unchecked Sendable {
    /// The device's clock while the harness sleeps, and the furthest it may follow to.
    private struct Window {
        var now: Date
        var limit: Date
    }

    /// The real time between two steps.
    let stepDuration: Duration
    private let lock = NSLock()
    private var last: ContinuousClock.Instant?
    private var owed: TimeInterval = 0
    private var window: Window?

    init(step: Duration) {
        stepDuration = step
    }

    /// Forgets the real time owed: the clock jumped, or stops following.
    func reset() {
        lock.withLock {
            last = nil
            owed = 0
        }
    }

    /// Sleeps one step, the clock at `now`, then answers the seconds of real time the device's clock owes and where
    /// it is (later than `now` when app code caught it up meanwhile, never past `limit`).
    func step(now: Date, limit: Date) async throws -> (owed: TimeInterval, now: Date) {
        lock.withLock {
            if last == nil { last = .now }
            window = Window(now: now, limit: limit)
        }
        await RealTimeSleep.sleep(for: stepDuration)
        try Task.checkCancellation()
        return lock.withLock {
            let caughtUp = window?.now ?? now
            window = nil
            accrue()
            return (owed, caughtUp)
        }
    }

    /// The clock moved `seconds` (less than owed when it stopped at app code).
    func applied(_ seconds: TimeInterval) {
        lock.withLock { owed = max(0, owed - seconds) }
    }

    /// While the harness sleeps between steps, moves the clock by the real time elapsed (up to the step's limit)
    /// through `advance`, which answers where the clock stopped; at any other time, does nothing.
    func catchUp(_ advance: (Date) throws -> AdvanceOutcome) throws {
        try lock.withLock {
            guard var open = window else { return }
            accrue()
            let target = min(open.limit, open.now.addingTimeInterval(owed))
            guard target > open.now else { return }
            let outcome = try advance(target)
            owed = max(0, owed - outcome.now.timeIntervalSince(open.now))
            open.now = outcome.now
            window = open
            VirtualDateFile.shared?.write(outcome.now)
        }
    }

    /// Adds the real time since the last reading to what is owed (with `lock` held).
    private func accrue() {
        let now = ContinuousClock.now
        if let last { owed += (now - last).timeInterval }
        last = now
    }
}
