/// The predictive engine (R26) and daily budgets (R27).
extension DeviceEngine {
    static let day: Int64 = 86_400_000

    /// The minute of the day the user usually opens the app: launches on at least `predictionMinimumDays`
    /// different days of the last two weeks within 30 minutes of each other.
    func usualLaunchMinute(_ i: AppSlot) -> Int? {
        // Fewer launches than days needed make no pattern (each launch is on one day): answered without a copy.
        let minimumDays = policy.predictionMinimumDays
        guard device.apps[i].runtime.launchHistory.count >= minimumDays else { return nil }
        // Allocation-free (the forecast asks at every opportunity of thousands of devices): the history is in time
        // order (appended at each launch), so the days of the launches near a minute come in order too, and
        // counting the changes of day counts the distinct days.
        let history = device.apps[i].runtime.launchHistory
        let nowMilliseconds = now.milliseconds
        func minute(_ launch: VirtualInstant) -> Int { Int((launch.milliseconds % Self.day + Self.day) % Self.day / 60_000) }
        var best: (days: Int, minute: Int)?
        for launch in history where nowMilliseconds - launch.milliseconds <= 14 * Self.day {
            let m = minute(launch)
            var distinct = 0
            var lastDay: Int64?
            var sum = 0
            var count = 0
            for other in history where nowMilliseconds - other.milliseconds <= 14 * Self.day {
                let n = minute(other)
                guard abs(n - m) <= 30 else { continue }
                let day = other.milliseconds / Self.day
                if day != lastDay { distinct += 1 }
                lastDay = day
                sum += n
                count += 1
            }
            if distinct >= minimumDays, distinct > (best?.days ?? 0) {
                best = (distinct, sum / count)
            }
        }
        return best?.minute
    }

    /// When the next predicted launch comes: `predictionLead` before the usual minute.
    func nextPredictedLaunch(_ i: AppSlot) -> VirtualInstant? {
        guard let minute = usualLaunchMinute(i) else { return nil }
        let dayStart = now.milliseconds - (now.milliseconds % Self.day + Self.day) % Self.day
        var at = VirtualInstant(milliseconds: dayStart + Int64(minute) * 60_000 - policy.predictionLead.milliseconds)
        while at <= now { at = VirtualInstant(milliseconds: at.milliseconds + Self.day) }
        return at
    }

    mutating func reschedulePrediction(_ i: AppSlot) {
        let bundleId = device.apps[i].bundleId
        cancelTimers { $0 == .predictedUsage(bundleId: bundleId) }
        if let at = nextPredictedLaunch(i) { schedule(.predictedUsage(bundleId: bundleId), at: at) }
    }

    // MARK: Budget

    var today: Int64 { now.milliseconds / Self.day }

    func budgetUsed(_ i: AppSlot) -> Int {
        let budget = device.apps[i].runtime.budget
        return budget.day == today ? budget.used : 0
    }

    /// The launches the app may have today: the profile's base scaled by its behaviour, plus a bonus for use.
    func dailyBudget(_ i: AppSlot) -> Int {
        var recentLaunches = 0
        for launch in device.apps[i].runtime.launchHistory where now.milliseconds - launch.milliseconds <= 7 * Self.day {
            recentLaunches += 1
        }
        let policy = self.policy
        return Int(Double(policy.dailyLaunchBudget) * device.apps[i].runtime.budget.score)
            + min(policy.usageBudgetBonus, recentLaunches)
    }

    mutating func consumeBudget(_ i: AppSlot) {
        if device.apps[i].runtime.budget.day != today {
            device.apps[i].runtime.budget.day = today
            device.apps[i].runtime.budget.used = 0
        }
        device.apps[i].runtime.budget.used += 1
    }

    /// R27: finishing within half the time earns credit.
    mutating func scoreCompletion(_ i: AppSlot, run: Run) {
        guard run.state == .running, (now - run.startedAt).milliseconds * 2 <= (run.deadline - run.startedAt).milliseconds
        else { return }
        device.apps[i].runtime.budget.score = min(2, device.apps[i].runtime.budget.score + 0.1)
    }

    /// R27: running to expiration costs credit.
    mutating func scoreExpiration(_ i: AppSlot) {
        device.apps[i].runtime.budget.score = max(0.25, device.apps[i].runtime.budget.score - 0.25)
    }
}
