extension ForecastRequest {
    /// Every issue of the request, each naming its field by JSON path (`population.forceQuitShare`); empty when
    /// the forecast can run.
    public func validate() -> [FieldIssue] {
        var issues: [FieldIssue] = []
        func check(_ ok: Bool, _ field: String, _ message: String) {
            if !ok { issues.append(FieldIssue(field, message)) }
        }
        func share(_ value: Double, _ field: String) { check((0...1).contains(value), field, "must be from 0 to 1") }
        func hour(_ value: Double, _ field: String) { check(value >= 0 && value < 24, field, "must be an hour from 0 to below 24") }
        check((1...Self.maximumDevices).contains(devices), "devices", "must be from 1 to \(Self.maximumDevices)")
        check((1...Self.maximumDays).contains(days), "days", "must be from 1 to \(Self.maximumDays)")

        do {
            _ = try app.installation.validated(installedAt: .defaultStart)
        } catch EmulationError.invalid(let found) {
            issues += found.map { FieldIssue("app." + $0.field, $0.message) }
        } catch {
            issues.append(FieldIssue("app", "cannot be installed"))
        }
        let modes = app.infoPlist.UIBackgroundModes
        for (n, submission) in app.atLaunch.submit.enumerated() {
            let field = "app.atLaunch.submit[\(n)]"
            check(app.infoPlist.BGTaskSchedulerPermittedIdentifiers.contains(submission.identifier), field + ".identifier",
                  "must be in infoPlist.BGTaskSchedulerPermittedIdentifiers (R15)")
            if let mode = submission.kind.requiredMode {
                check(modes.contains(mode.rawValue), field + ".kind",
                      "needs the background mode \(mode.rawValue) in infoPlist.UIBackgroundModes (R15)")
            } else {
                check(false, field + ".kind", "must be appRefresh or processing: a forecast launches no continued processing (R41)")
            }
            if let begin = submission.earliestBeginSeconds {
                check(begin >= 0 && begin <= 7 * 86_400, field + ".earliestBeginSeconds", "must be from 0 to 604800")
            }
        }
        if case .seconds(let s) = app.atLaunch.fetchInterval {
            check(s.milliseconds >= 0 && s.seconds <= 7 * 86_400, "app.atLaunch.fetchInterval", "must be from 0 to 604800 seconds")
        }
        // What the iOS version has: BGTaskScheduler from iOS 13, background fetch from iOS 7 (docs/rules.md,
        // Profiles). A forecast of a kind the version lacks would only count refusals.
        let profile = Profile.for(osVersion)
        if !profile.bgTaskSchedulerAvailable, !app.atLaunch.submit.isEmpty {
            issues.append(FieldIssue(
                "app.atLaunch.submit", "BGTaskScheduler exists from iOS 13; osVersion \(osVersion) has none (R15)"))
        }
        if profile.appRefreshRun == nil, let interval = app.atLaunch.fetchInterval, interval != .never {
            issues.append(FieldIssue(
                "app.atLaunch.fetchInterval", "background fetch exists from iOS 7; osVersion \(osVersion) has none (R28)"))
        }
        check(!app.reportedKinds.isEmpty || !pushes.isEmpty, "app.atLaunch",
              "gives the forecast nothing to count: submit a request (atLaunch.submit) or set a fetch interval "
                  + "(atLaunch.fetchInterval) at launch, or send pushes")
        if let interval = app.atLaunch.fetchInterval, interval != .never {
            check(modes.contains(BackgroundMode.fetch.rawValue), "app.atLaunch.fetchInterval",
                  "needs the background mode fetch in infoPlist.UIBackgroundModes (R28)")
        }

        let p = population
        share(p.lowPowerModeShare, "population.lowPowerModeShare")
        share(p.lowPowerModeWhenLowShare, "population.lowPowerModeWhenLowShare")
        check(p.lowPowerModeShare + p.lowPowerModeWhenLowShare <= 1, "population.lowPowerModeWhenLowShare",
              "with lowPowerModeShare must be at most 1")
        check((1...100).contains(p.lowPowerModeBatteryLevel), "population.lowPowerModeBatteryLevel", "must be from 1 to 100")
        share(p.backgroundAppRefreshOffShare, "population.backgroundAppRefreshOffShare")
        share(p.appBackgroundAppRefreshOffShare, "population.appBackgroundAppRefreshOffShare")
        share(p.forceQuitShare, "population.forceQuitShare")
        check(!p.usage.isEmpty && p.usage.count <= 20, "population.usage", "must have 1 to 20 patterns")
        for (n, pattern) in p.usage.enumerated() {
            let field = "population.usage[\(n)]"
            check(!pattern.name.isEmpty, field + ".name", "must not be empty")
            check(pattern.share >= 0 && pattern.share.isFinite, field + ".share", "must be 0 or more")
            check(!pattern.hours.isEmpty && pattern.hours.count <= 24, field + ".hours", "must have 1 to 24 hours")
            for (h, value) in pattern.hours.enumerated() { hour(value, field + ".hours[\(h)]") }
            check((0...48).contains(pattern.opensPerDay), field + ".opensPerDay", "must be from 0 to 48")
            check((0...720).contains(pattern.spreadMinutes), field + ".spreadMinutes", "must be from 0 to 720")
            check(pattern.sessionMinutes > 0 && pattern.sessionMinutes <= 240, field + ".sessionMinutes", "must be above 0 and at most 240")
        }
        check(p.usage.contains { $0.share > 0 }, "population.usage", "needs a pattern with a share above 0")
        check(p.charging.count <= 20, "population.charging", "must have at most 20 habits")
        for (n, habit) in p.charging.enumerated() {
            let field = "population.charging[\(n)]"
            check(habit.share >= 0 && habit.share.isFinite, field + ".share", "must be 0 or more")
            if let start = habit.startHour { hour(start, field + ".startHour") }
            check(habit.durationHours > 0 && habit.durationHours <= 24, field + ".durationHours", "must be above 0 and at most 24")
            share(habit.daysShare, field + ".daysShare")
            check((0...720).contains(habit.spreadMinutes), field + ".spreadMinutes", "must be from 0 to 720")
        }
        for (name, range, bounds) in [
            ("batteryDrainPerHour", p.batteryDrainPerHour, 0.0...100.0), ("startBattery", p.startBattery, 1.0...100.0),
        ] {
            check(bounds.contains(range.min) && bounds.contains(range.max) && range.min <= range.max,
                  "population.\(name)", "min and max must be from \(Int(bounds.lowerBound)) to 100, min at most max")
        }
        check((0...100).contains(p.chargePerHour), "population.chargePerHour", "must be from 0 to 100")
        hour(p.network.homeFromHour, "population.network.homeFromHour")
        hour(p.network.homeToHour, "population.network.homeToHour")
        for (name, mix) in [("home", p.network.home), ("away", p.network.away)] {
            let weights = [mix.wifi, mix.cellular, mix.none]
            check(weights.allSatisfy { $0 >= 0 && $0.isFinite } && weights.reduce(0, +) > 0, "population.network.\(name)",
                  "wifi, cellular and none must be 0 or more, not all 0")
        }

        check(pushes.count <= 10, "pushes", "at most 10 schedules")
        for (n, push) in pushes.enumerated() {
            let field = "pushes[\(n)]"
            check(push.everyMinutes != nil || !(push.atHours ?? []).isEmpty, field, "needs everyMinutes or atHours")
            if let every = push.everyMinutes { check(every >= 1 && every <= 10_080, field + ".everyMinutes", "must be from 1 to 10080") }
            for (h, value) in (push.atHours ?? []).enumerated() { hour(value, field + ".atHours[\(h)]") }
            check(push.priority == 5 || push.priority == 10, field + ".priority", "must be 5 (background) or 10 (alert)")
            if let expiration = push.expirationSeconds {
                check(expiration >= 1 && expiration <= 30 * 86_400, field + ".expirationSeconds", "must be from 1 to 2592000")
            }
        }
        // Each push is a call on every device: the size limit (devices × days) assumes a handful a day.
        let perDay = pushes.reduce(0.0) { total, push in
            total + (push.everyMinutes.map { $0 >= 1 ? 1_440 / $0 : 0 } ?? 0) + Double(push.atHours?.count ?? 0)
        }
        check(perDay <= Double(Self.maximumPushesPerDay), "pushes",
              "at most \(Self.maximumPushesPerDay) pushes a day in all (one every 5 minutes); these send \(Int(perDay.rounded()))")
        return issues
    }
}
