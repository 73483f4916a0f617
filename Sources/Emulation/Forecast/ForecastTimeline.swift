import Foundation

/// One device's days as the engine calls a client of the API would make, at their virtual instants.
public struct ForecastTimeline: Sendable, Equatable {
    /// The device's conditions when it is created, at `start`.
    public var initialConditions: DeviceConditions
    /// Midnight of day 0 (`VirtualInstant.defaultStart`): the device's creation.
    public var start: VirtualInstant
    /// The app's install: the person's first open, on day 0.
    public var installAt: VirtualInstant
    /// `installAt` plus the forecast's days: the device's clock stops there.
    public var end: VirtualInstant
    /// In time order; at one instant in the order they are made.
    public var actions: [ForecastAction]
}

/// An engine call at a virtual instant.
public struct ForecastAction: Sendable, Equatable {
    /// When the call is made (the clock is advanced there first).
    public var at: VirtualInstant
    /// The call.
    public var command: ForecastCommand
}

/// What happens to the device, as a client of the API would say it.
public enum ForecastCommand: Sendable, Equatable {
    /// `install` the app (and turn its Background App Refresh switch off for such a person).
    case install
    /// The user opens the app (`launch`); its code submits its requests and sets its fetch interval.
    case open
    /// The user leaves the app (`background`), or swipes it away (`forceQuit`).
    case leave(forceQuit: Bool)
    /// Battery, charger, Low Power Mode, network, lock and use change (`setConditions`).
    case conditions(DeviceConditions)
    /// APNs hands the device the forecast's push number `n` (`receivePush`).
    case push(Int)
}

extension ForecastTimeline {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// The timeline of `person` in `request`: opens and sessions, charging, battery, Low Power Mode, network by the
    /// hour, and the fleet's pushes after the install.
    ///
    /// Battery: it falls by the person's drain per hour unplugged and rises by `chargePerHour` on the charger
    /// (1–100 %), updated at every change and every hour. Low Power Mode `whenLow` turns on at or below the
    /// population's level unplugged and off once charged to 80 %. The screen is unlocked and the user active
    /// during the app's sessions only.
    static func build(_ request: ForecastRequest, _ person: ForecastPerson) -> ForecastTimeline {
        let population = request.population
        var random = ForecastRandom(seed: person.daysSeed)
        let start = VirtualInstant.defaultStart
        let dayCount = request.days + 1
        let pattern = population.usage.first { $0.name == person.usage }
        let habit = population.charging.first { $0.name == person.charging }

        // Sessions, as [start, end) in milliseconds after `start`.
        var opens: [Int64] = []
        if let pattern, !pattern.hours.isEmpty {
            let perHour = max(0, pattern.opensPerDay) / Double(pattern.hours.count)
            for d in 0..<dayCount {
                for openHour in pattern.hours {
                    let whole = Int(perHour.rounded(.down))
                    let extra = random.uniform() < perHour - Double(whole) ? 1 : 0
                    for _ in 0..<(whole + extra) {
                        opens.append(Int64(d) * day + minuteOffset(openHour, pattern.spreadMinutes, &random))
                    }
                }
            }
            opens.sort()
            // The install: the first open of day 0, at the first hour, when the draws gave none that day.
            if opens.first.map({ $0 >= day }) ?? true {
                opens.insert(max(0, minuteOffset(pattern.hours.min()!, pattern.spreadMinutes, &random)), at: 0)
            }
        } else {
            opens = [12 * hour]
        }
        let session = Int64(max(1, (pattern?.sessionMinutes ?? 5) * 60_000))
        var sessions: [(Int64, Int64)] = []
        for open in opens {
            let begin = max(open, 0, (sessions.last?.1 ?? -60_000) + 60_000)
            sessions.append((begin, begin + session))
        }
        let install = sessions[0].0
        let end = install + Int64(request.days) * day

        // Charging intervals, merged; day −1 covers a charge begun the evening before.
        var charges: [(Int64, Int64)] = []
        if let habit {
            for dayIndex in -1..<dayCount {
                guard random.uniform() < habit.daysShare else { continue }
                let at = habit.startHour.map { minuteOffset($0, habit.spreadMinutes, &random) }
                    ?? Int64(random.uniform() * Double(day))
                let from = Int64(dayIndex) * day + at
                charges.append((from, from + Int64(habit.durationHours * Double(hour))))
            }
        }
        charges.sort { $0.0 < $1.0 }
        var merged: [(Int64, Int64)] = []
        for charge in charges {
            if let last = merged.last, charge.0 <= last.1 {
                merged[merged.count - 1].1 = max(last.1, charge.1)
            } else {
                merged.append(charge)
            }
        }

        // Change points: (time, order at one instant, what).
        enum Point {
            case open, leave, plug, unplug, hour, push(Int)
        }
        var points: [(Int64, Int, Point)] = []
        for (begin, finish) in sessions where begin < end {
            points.append((begin, 1, .open))
            if finish < end { points.append((finish, 2, .leave)) }
        }
        for (from, to) in merged where to > 0 && from < end {
            if from > 0 { points.append((from, 0, .plug)) }
            if to < end { points.append((to, 0, .unplug)) }
        }
        var tick: Int64 = 0
        while tick < end {
            points.append((tick, 0, .hour))
            tick += hour
        }
        for (n, push) in pushTimes(request, days: request.days).enumerated() where push.at >= install && push.at < end {
            points.append((push.at, 3, .push(n)))
        }
        points.sort { ($0.0, $0.1) < ($1.0, $1.1) }

        // Walk the points, keeping the conditions.
        var battery = Double(person.startBattery)
        var charging = merged.contains { $0.0 <= 0 && $0.1 > 0 }
        var lowPower = person.lowPowerMode == .allDay
        var conditions = DeviceConditions(
            batteryLevel: person.startBattery, charging: charging, lowPowerMode: lowPower,
            network: network(population.network, at: 0, &random), backgroundAppRefresh: !person.backgroundAppRefreshOff,
            locked: true, userActive: false)
        let initial = conditions
        var last: Int64 = 0
        var actions: [ForecastAction] = []
        var installed = false
        func at(_ t: Int64) -> VirtualInstant { start + VirtualDuration(milliseconds: t) }
        for (t, _, point) in points {
            let hours = Double(t - last) / Double(hour)
            battery = min(100, max(1, battery + (charging ? population.chargePerHour : -person.drainPerHour) * hours))
            last = t
            var next = conditions
            switch point {
            case .plug: charging = true
            case .unplug: charging = false
            case .hour: if t > 0 { next.network = network(population.network, at: t, &random) }
            case .open:
                next.locked = false
                next.userActive = true
            case .leave, .push: break
            }
            if person.lowPowerMode == .whenLow {
                if !charging, battery <= Double(population.lowPowerModeBatteryLevel) { lowPower = true }
                if charging, battery >= 80 { lowPower = false }
            }
            next.charging = charging
            next.lowPowerMode = lowPower
            next.batteryLevel = Int(battery.rounded(.down))
            if case .leave = point {
                actions.append(ForecastAction(at: at(t), command: .leave(forceQuit: person.forceQuits)))
                next.locked = true
                next.userActive = false
            }
            if next != conditions {
                actions.append(ForecastAction(at: at(t), command: .conditions(next)))
                conditions = next
            }
            switch point {
            case .open:
                if !installed {
                    actions.append(ForecastAction(at: at(t), command: .install))
                    installed = true
                }
                actions.append(ForecastAction(at: at(t), command: .open))
            case .push(let n):
                actions.append(ForecastAction(at: at(t), command: .push(n)))
            default: break
            }
        }
        return ForecastTimeline(
            initialConditions: initial, start: start, installAt: at(install), end: at(end), actions: actions)
    }

    /// Milliseconds into a day of `hour`, moved by a triangular offset of at most `spread` minutes.
    private static func minuteOffset(_ hour: Double, _ spread: Double, _ random: inout ForecastRandom) -> Int64 {
        Int64(((hour * 60 + random.triangular() * spread) * 60_000).rounded())
    }

    private static func network(_ mix: ForecastNetworkMix, at t: Int64, _ random: inout ForecastRandom) -> NetworkKind {
        let hourOfDay = Double((t % day) / hour)
        return (mix.isHome(hourOfDay) ? mix.home : mix.away).network(at: random.uniform())
    }

    /// The fleet's pushes over the `days + 1` calendar days a device may span, in milliseconds after the start,
    /// with the index of their schedule, in time order (then schedule order): a push's number is its place here.
    static func pushTimes(_ request: ForecastRequest, days: Int) -> [(at: Int64, schedule: Int)] {
        let span = Int64(days + 1) * day
        var times: [(at: Int64, schedule: Int)] = []
        for (index, schedule) in request.pushes.enumerated() {
            if let every = schedule.everyMinutes, every > 0 {
                let step = max(1, Int64(every * 60_000))
                var t: Int64 = 0
                while t < span {
                    times.append((t, index))
                    t += step
                }
            }
            for dayIndex in 0..<(days + 1) {
                for h in schedule.atHours ?? [] { times.append((Int64(dayIndex) * day + Int64(h * Double(hour)), index)) }
            }
        }
        return times.sorted { ($0.at, $0.schedule) < ($1.at, $1.schedule) }
    }
}
