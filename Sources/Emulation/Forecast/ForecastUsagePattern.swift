/// How one kind of person opens the app: at which hours, how often, with how much spread, for how long.
///
/// Each day, each hour of `hours` gets `opensPerDay / hours.count` opens on average: the whole part always, the
/// fraction with that probability (a rare user's 0.3 opens at one hour is an open on 30 % of days). Each open
/// comes at its hour plus a triangular offset of at most `spreadMinutes` either side, and lasts `sessionMinutes`.
public struct ForecastUsagePattern: Sendable, Equatable, Codable {
    /// What the rows call it.
    public var name: String
    /// The weight of the pattern in the population (shares are normalised over the list).
    public var share: Double
    /// Hours of the day (local = the virtual clock's UTC), fractions allowed: `[8, 18]`, `[20.5]`.
    public var hours: [Double]
    /// Opens a day, over all `hours` (fractions allowed: 0.3 is an open on about 3 days in 10).
    public var opensPerDay: Double
    /// The most an open comes before or after its hour (a triangular offset).
    public var spreadMinutes: Double
    /// How long the app stays in the foreground at each open, before the user leaves it (or force-quits it).
    public var sessionMinutes: Double

    public init(name: String, share: Double, hours: [Double], opensPerDay: Double, spreadMinutes: Double, sessionMinutes: Double) {
        self.name = name
        self.share = share
        self.hours = hours
        self.opensPerDay = opensPerDay
        self.spreadMinutes = spreadMinutes
        self.sessionMinutes = sessionMinutes
    }

    /// Opens the app on the way to work and back: 8:00 and 18:00 ± 20 min, 5 min each. Regular enough for
    /// the predictive engine (R26: launches on 3 days within 30 min).
    public static let commuter = ForecastUsagePattern(
        name: "commuter", share: 0.4, hours: [8, 18], opensPerDay: 2, spreadMinutes: 20, sessionMinutes: 5)
    /// Opens it once in the evening, 20:30 ± 60 min, 10 min.
    public static let evening = ForecastUsagePattern(
        name: "evening", share: 0.35, hours: [20.5], opensPerDay: 1, spreadMinutes: 60, sessionMinutes: 10)
    /// Opens it on about 3 days in 10, around 13:00 ± 3 h, 3 min.
    public static let rare = ForecastUsagePattern(
        name: "rare", share: 0.25, hours: [13], opensPerDay: 0.3, spreadMinutes: 180, sessionMinutes: 3)
}

/// When one kind of person charges the phone.
///
/// On each day, with probability `daysShare`, the phone is plugged in at `startHour` (± a triangular offset of at
/// most `spreadMinutes`; a random hour of the day when `startHour` is nil) for `durationHours`.
public struct ForecastChargingHabit: Sendable, Equatable, Codable {
    /// What the rows call it.
    public var name: String
    /// The weight of the habit in the population (normalised over the list).
    public var share: Double
    /// When the phone is plugged in; nil: a random time of day.
    public var startHour: Double?
    /// How long it stays on the charger.
    public var durationHours: Double
    /// The share of days with this charge.
    public var daysShare: Double
    /// The most the plug-in comes before or after `startHour` (a triangular offset).
    public var spreadMinutes: Double

    public init(name: String, share: Double, startHour: Double?, durationHours: Double, daysShare: Double, spreadMinutes: Double) {
        self.name = name
        self.share = share
        self.startHour = startHour
        self.durationHours = durationHours
        self.daysShare = daysShare
        self.spreadMinutes = spreadMinutes
    }

    /// On the charger every night, 23:00 ± 60 min, for 8 hours.
    public static let overnight = ForecastChargingHabit(
        name: "overnight", share: 0.75, startHour: 23, durationHours: 8, daysShare: 1, spreadMinutes: 60)
    /// Tops up for 2 h at a random time on 80 % of days.
    public static let irregular = ForecastChargingHabit(
        name: "irregular", share: 0.25, startHour: nil, durationHours: 2, daysShare: 0.8, spreadMinutes: 0)
}

/// The network over the day: one draw per device and hour, from the home mix at home hours, the away mix else.
public struct ForecastNetworkMix: Sendable, Equatable, Codable {
    /// Home hours start at `homeFromHour` and end at `homeToHour` (wrapping past midnight). Default 19–8.
    public var homeFromHour: Double
    /// The end of home hours (excluded).
    public var homeToHour: Double
    /// Default: Wi-Fi 0.9, cellular 0.08, none 0.02.
    public var home: ForecastNetworkShares
    /// Default: Wi-Fi 0.25, cellular 0.7, none 0.05.
    public var away: ForecastNetworkShares

    public init(homeFromHour: Double, homeToHour: Double, home: ForecastNetworkShares, away: ForecastNetworkShares) {
        self.homeFromHour = homeFromHour
        self.homeToHour = homeToHour
        self.home = home
        self.away = away
    }

    /// Home 19:00–8:00 on Wi-Fi 0.9, cellular 0.08, none 0.02; away on Wi-Fi 0.25, cellular 0.7, none 0.05.
    public static let defaults = ForecastNetworkMix(
        homeFromHour: 19, homeToHour: 8, home: ForecastNetworkShares(wifi: 0.9, cellular: 0.08, none: 0.02),
        away: ForecastNetworkShares(wifi: 0.25, cellular: 0.7, none: 0.05))

    /// Whether `hour` (0–24) is a home hour.
    func isHome(_ hour: Double) -> Bool {
        homeFromHour <= homeToHour ? (hour >= homeFromHour && hour < homeToHour) : (hour >= homeFromHour || hour < homeToHour)
    }
}

/// Weights of the three networks (normalised).
public struct ForecastNetworkShares: Sendable, Equatable, Codable {
    /// The weight of Wi-Fi.
    public var wifi: Double
    /// The weight of cellular.
    public var cellular: Double
    /// The weight of no network (R20: a request that needs one waits).
    public var none: Double
    public init(wifi: Double, cellular: Double, none: Double) {
        self.wifi = wifi
        self.cellular = cellular
        self.none = none
    }

    /// The network at `u` (0–1) of the cumulative weights.
    func network(at u: Double) -> NetworkKind {
        let total = wifi + cellular + none
        guard total > 0 else { return .none }
        let x = u * total
        if x < wifi { return .wifi }
        if x < wifi + cellular { return .cellular }
        return .none
    }
}
