import Foundation

/// Co-simulated time: the device's clock jumps from one instant of app code to the next while every app is idle or
/// suspended, and follows real time (in steps of ``realTimeStep``, still stopping at app code) while an app's code
/// is at work (see ``BusyLedger``); a call of that code between two steps catches the clock up to the real time it is
/// made at (``RealTimeFollower``). Real time is read from the monotonic clock (`ContinuousClock`), never the wall
/// clock; app code that completes inside its handler never makes the harness read it, so its events are the same
/// run after run.
extension EmulatedDevice {
    /// The real time between two steps of a clock that follows real time, unless ``realTimeStep`` is set.
    static let defaultRealTimeStep: Duration = .milliseconds(20)

    /// Starts following real time for one harness call: app code that calls the system between two steps catches
    /// the clock up first (``catchUpWithRealTime()``).
    func startFollowing() -> RealTimeFollower {
        let follower = RealTimeFollower(step: realTimeStep)
        currentFollower = follower
        return follower
    }

    func stopFollowing() { currentFollower = nil }

    /// Moves the clock by the real time elapsed since the harness's last step, when the clock follows real time
    /// and the harness sleeps between two steps: for a call of app code running on its own (a `Task`, a thread, a
    /// main-queue block), before it reaches the service. A failure to reach the service is kept for the harness.
    func catchUpWithRealTime() {
        guard let follower = currentFollower else { return }
        do {
            try follower.catchUp { try service.advance(to: $0, stopAtAppCode: true) }
        } catch {
            keepFailure(error)
        }
    }

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
            let follower = startFollowing()
            defer { stopFollowing() }
            while true {
                let open = openItems()
                if open.isEmpty { return }
                guard ContinuousClock.now < deadline else { throw BGEmuError.stillBusy(open.joined(separator: "; ")) }
                let (owed, caughtUp) = try await follower.step(now: now, limit: .distantFuture)
                now = caughtUp
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
        let follower = startFollowing()
        defer { stopFollowing() }
        while true {
            guard busyState() == .busy else {
                // Idle, or busy past the budget: jump to the next instant of app code, or to the target.
                follower.reset()
                if reached { return }
                let outcome = try service.advance(to: target, stopAtAppCode: true)
                now = outcome.now
                VirtualDateFile.shared?.write(now)
                try await drain(isolation: isolation)
                if !outcome.stopped { reached = true }
                continue
            }
            let (owed, caughtUp) = try await follower.step(now: now, limit: target)
            now = caughtUp
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
