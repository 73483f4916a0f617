import Foundation

/// Co-simulated time: the device's clock jumps from one instant of app code to the next while every app is idle or
/// suspended, and follows real time (in steps of ``realTimeStep``, still stopping at app code) while an app's code
/// is at work (see ``BusyLedger``). Real time is read from the monotonic clock (`ContinuousClock`), never the wall
/// clock; app code that completes inside its handler never makes the harness read it, so its events are the same
/// run after run.
extension EmulatedDevice {
    /// The real time between two steps of a clock that follows real time.
    static let realTimeStep: Duration = .milliseconds(20)

    /// Waits until every app of the device is idle — no run whose completion its code holds, no background task
    /// open — dispatching the events that arrive meanwhile; the device's clock follows real time while it waits
    /// (whatever ``realTimeBudget`` says: `timeout` bounds the wait). Returns at once when every app is idle
    /// already. For app code that ends its work asynchronously (an `endBackgroundTask` after an upload, a
    /// completion in a `Task`) outside ``advanceClock(by:isolation:)``.
    ///
    /// Throws ``BGEmuError/stillBusy(_:)``, naming what is still open, when `timeout` of real time passes first.
    public func settle(timeout: Duration = .seconds(10), isolation: isolated (any Actor)? = #isolation) async throws {
        try await perform {
            try await drain(isolation: isolation)
            let deadline = ContinuousClock.now.advanced(by: timeout)
            var now = try service.clockNow()
            var follower = RealTimeFollower()
            while true {
                let open = openItems()
                if open.isEmpty { return }
                guard ContinuousClock.now < deadline else { throw BGEmuError.stillBusy(open.joined(separator: "; ")) }
                let owed = try await follower.step()
                let outcome = try service.advance(to: now.addingTimeInterval(owed), stopAtAppCode: true)
                follower.applied(outcome.now.timeIntervalSince(now))
                now = outcome.now
                VirtualDateFile.shared?.write(now)
                try await drain(isolation: isolation)
            }
        }
    }

    /// ``advanceClock(by:isolation:)``'s loop, within its harness call.
    func coSimulate(by seconds: TimeInterval, isolation: isolated (any Actor)? = #isolation) async throws {
        var now = try service.clockNow()
        let target = now.addingTimeInterval(seconds)
        var reached = false
        var follower = RealTimeFollower()
        while true {
            guard busyState() == .busy else {
                // Idle, or busy past the budget: jump to the next instant of app code, or to the target.
                follower = RealTimeFollower()
                if reached { return }
                let outcome = try service.advance(to: target, stopAtAppCode: true)
                now = outcome.now
                VirtualDateFile.shared?.write(now)
                try await drain(isolation: isolation)
                if !outcome.stopped { reached = true }
                continue
            }
            let owed = try await follower.step()
            if reached {
                // At the target: the clock waits there for the app's code, bounded by the budget.
                try await drain(isolation: isolation)
                continue
            }
            let step = min(target, now.addingTimeInterval(owed))
            let outcome = try service.advance(to: step, stopAtAppCode: true)
            follower.applied(outcome.now.timeIntervalSince(now))
            now = outcome.now
            VirtualDateFile.shared?.write(now)
            if step == target && !outcome.stopped { reached = true }
            try await drain()
        }
    }

    /// The device's apps together: busy when one is busy within the budget, idle when all are.
    func busyState() -> BusyLedger.State {
        let now = ContinuousClock.now
        let budget = realTimeBudget
        var state = BusyLedger.State.idle
        for app in installedApps {
            switch app.busy.state(at: now, budget: budget) {
            case .busy: return .busy
            case .overdue: state = .overdue
            case .idle: break
            }
        }
        return state
    }

    /// What keeps the device's apps busy (`com.example.app: run run_1`), sorted.
    func openItems() -> [String] {
        installedApps.flatMap { app in app.busy.openItems.map { "\(app.bundleId): \($0)" } }.sorted()
    }
}

/// Real time elapsed and not yet applied to the device's clock, read from the monotonic clock.
struct RealTimeFollower {
    private var last: ContinuousClock.Instant?
    private var owed: TimeInterval = 0

    /// Sleeps one step, then answers the seconds of real time the device's clock owes.
    mutating func step() async throws -> TimeInterval {
        let start = last ?? .now
        await RealTimeSleep.sleep(for: EmulatedDevice.realTimeStep)
        try Task.checkCancellation()
        let now = ContinuousClock.now
        let elapsed = now - start
        owed += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        last = now
        return owed
    }

    /// The device's clock moved `seconds` (less than owed when it stopped at app code).
    mutating func applied(_ seconds: TimeInterval) { owed = max(0, owed - seconds) }
}
