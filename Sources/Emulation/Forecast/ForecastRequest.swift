/// A fleet forecast: how many synthetic devices, for how long, on which iOS, running which app, held by which
/// population, sent which pushes. Decoded from the `POST /v1/forecasts` body; absent optional fields take their
/// documented defaults.
public struct ForecastRequest: Sendable, Equatable, Codable {
    /// Seeds every device's person and engine: device *i* depends only on `(seed, i)`.
    public var seed: UInt64
    /// How many devices (1–`maximumDevices`).
    public var devices: Int
    /// How many days each device runs after the app's install (1–`maximumDays`).
    public var days: Int
    /// The iOS version of every device (its profile). Default 17.0.
    public var osVersion: OSVersion
    /// The app every device installs.
    public var app: ForecastApp
    /// Default `ForecastPopulation.defaults`.
    public var population: ForecastPopulation
    /// Pushes sent to the whole fleet. Default none.
    public var pushes: [ForecastPushSchedule]

    /// The most devices a forecast runs.
    public static let maximumDevices = 100_000
    /// The most days a forecast runs (one engine advance is at most 30 days).
    public static let maximumDays = 30
    /// The most pushes a day the schedules may send to each device, all together (one every 5 minutes).
    public static let maximumPushesPerDay = 288

    public init(
        seed: UInt64, devices: Int, days: Int, osVersion: OSVersion = .default, app: ForecastApp,
        population: ForecastPopulation = .defaults, pushes: [ForecastPushSchedule] = []
    ) {
        self.seed = seed
        self.devices = devices
        self.days = days
        self.osVersion = osVersion
        self.app = app
        self.population = population
        self.pushes = pushes
    }

    private enum CodingKeys: String, CodingKey {
        case seed, devices, days, osVersion, app, population, pushes
    }

    /// Absent optional fields take their defaults; an unknown key is an issue.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["seed", "devices", "days", "osVersion", "app", "population", "pushes"])
        let c = try decoder.container(keyedBy: CodingKeys.self)
        seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0
        devices = try c.decode(Int.self, forKey: .devices)
        days = try c.decode(Int.self, forKey: .days)
        osVersion = try c.decodeIfPresent(OSVersion.self, forKey: .osVersion) ?? .default
        app = try c.decode(ForecastApp.self, forKey: .app)
        population = try c.decodeIfPresent(ForecastPopulation.self, forKey: .population) ?? .defaults
        pushes = try c.decodeIfPresent([ForecastPushSchedule].self, forKey: .pushes) ?? []
    }
}

/// Pushes sent to every device of the fleet: every `everyMinutes` from the start, and/or each day at `atHours`.
public struct ForecastPushSchedule: Sendable, Equatable, Codable {
    /// A push every this many minutes from midnight of day 0 (1–10080).
    public var everyMinutes: Double?
    /// A push at each of these hours every day.
    public var atHours: [Double]?
    /// 5: a background push (`content-available`, power-aware, R30); 10: an alert push that also has
    /// `content-available` (the user sees it; the wake is still a background push's). Default 5.
    public var priority: Int
    /// `apns-expiration`, seconds after sending; nil: APNs keeps it (until coalesced or delivered).
    public var expirationSeconds: Double?

    public init(everyMinutes: Double? = nil, atHours: [Double]? = nil, priority: Int = 5, expirationSeconds: Double? = nil) {
        self.everyMinutes = everyMinutes
        self.atHours = atHours
        self.priority = priority
        self.expirationSeconds = expirationSeconds
    }

    private enum CodingKeys: String, CodingKey {
        case everyMinutes, atHours, priority, expirationSeconds
    }

    /// Absent optional fields take their defaults; an unknown key is an issue.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["everyMinutes", "atHours", "priority", "expirationSeconds"])
        let c = try decoder.container(keyedBy: CodingKeys.self)
        everyMinutes = try c.decodeIfPresent(Double.self, forKey: .everyMinutes)
        atHours = try c.decodeIfPresent([Double].self, forKey: .atHours)
        priority = try c.decodeIfPresent(Int.self, forKey: .priority) ?? 5
        expirationSeconds = try c.decodeIfPresent(Double.self, forKey: .expirationSeconds)
    }
}
