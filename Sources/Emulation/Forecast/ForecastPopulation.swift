/// Who holds the forecast's devices: the shares of settings and habits, and the mix of usage, charging and network
/// patterns each synthetic person is drawn from (`ForecastPerson`). Every field has a documented default
/// (`ForecastPopulation.defaults`); a request gives only what it changes.
public struct ForecastPopulation: Sendable, Equatable, Codable {
    /// Share of devices with Low Power Mode on all day. Default 0.05: a few people leave it on. In Low Power Mode
    /// `BGTaskScheduler.submit` fails and no discretionary launch happens (R18, seed 004).
    public var lowPowerModeShare: Double
    /// Share of devices that turn Low Power Mode on when the battery falls to `lowPowerModeBatteryLevel` (iOS
    /// offers it then) and off once charged to 80 % (iOS turns it off there). Default 0.3.
    public var lowPowerModeWhenLowShare: Double
    /// The battery level, in percent, at which those people turn Low Power Mode on. Default 20, the level iOS
    /// offers it at and the engine's critical level (R25).
    public var lowPowerModeBatteryLevel: Int
    /// Share of devices with the device-wide Background App Refresh switch off (R18). Default 0.1.
    public var backgroundAppRefreshOffShare: Double
    /// Share of devices with the app's own Background App Refresh switch off (R18). Default 0.05.
    public var appBackgroundAppRefreshOffShare: Double
    /// Share of people who swipe the app away in the switcher at the end of every session (R5: it is not
    /// launched in the background again until they open it, R25). Default 0.1.
    public var forceQuitShare: Double
    /// How people open the app; each person follows one pattern, drawn by `share`. Default: commuter 0.4,
    /// evening 0.35, rare 0.25 (`ForecastUsagePattern`).
    public var usage: [ForecastUsagePattern]
    /// When people charge; each person has one habit, drawn by `share`. Default: overnight 0.75, irregular 0.25.
    public var charging: [ForecastChargingHabit]
    /// Battery percent lost per hour unplugged, day and night alike; each person's rate is drawn uniformly from
    /// this range. Default 2–5 %/h: a full phone reaches the 20 % critical level (R25) after 16–40 hours, so an
    /// overnight charger ends the day with 20–70 % and an irregular one often runs low.
    public var batteryDrainPerHour: ForecastRange
    /// Battery percent gained per hour on the charger. Default 40 %/h (empty to full in about 2.5 h).
    public var chargePerHour: Double
    /// The battery level at the start, in percent, drawn uniformly from this range. Default 50–100.
    public var startBattery: ForecastRange
    /// The network over the day. Default: Wi-Fi at home hours, mostly cellular away (`ForecastNetworkMix`).
    public var network: ForecastNetworkMix

    public init(
        lowPowerModeShare: Double, lowPowerModeWhenLowShare: Double, lowPowerModeBatteryLevel: Int,
        backgroundAppRefreshOffShare: Double, appBackgroundAppRefreshOffShare: Double, forceQuitShare: Double,
        usage: [ForecastUsagePattern], charging: [ForecastChargingHabit], batteryDrainPerHour: ForecastRange,
        chargePerHour: Double, startBattery: ForecastRange, network: ForecastNetworkMix
    ) {
        self.lowPowerModeShare = lowPowerModeShare
        self.lowPowerModeWhenLowShare = lowPowerModeWhenLowShare
        self.lowPowerModeBatteryLevel = lowPowerModeBatteryLevel
        self.backgroundAppRefreshOffShare = backgroundAppRefreshOffShare
        self.appBackgroundAppRefreshOffShare = appBackgroundAppRefreshOffShare
        self.forceQuitShare = forceQuitShare
        self.usage = usage
        self.charging = charging
        self.batteryDrainPerHour = batteryDrainPerHour
        self.chargePerHour = chargePerHour
        self.startBattery = startBattery
        self.network = network
    }

    /// The documented defaults of every field.
    public static let defaults = ForecastPopulation(
        lowPowerModeShare: 0.05, lowPowerModeWhenLowShare: 0.3, lowPowerModeBatteryLevel: 20,
        backgroundAppRefreshOffShare: 0.1, appBackgroundAppRefreshOffShare: 0.05, forceQuitShare: 0.1,
        usage: [.commuter, .evening, .rare], charging: [.overnight, .irregular],
        batteryDrainPerHour: ForecastRange(min: 2, max: 5), chargePerHour: 40,
        startBattery: ForecastRange(min: 50, max: 100), network: .defaults)

    private enum CodingKeys: String, CodingKey {
        case lowPowerModeShare, lowPowerModeWhenLowShare, lowPowerModeBatteryLevel, backgroundAppRefreshOffShare
        case appBackgroundAppRefreshOffShare, forceQuitShare, usage, charging, batteryDrainPerHour, chargePerHour
        case startBattery, network
    }

    /// Every absent field takes its default.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: [
            "lowPowerModeShare", "lowPowerModeWhenLowShare", "lowPowerModeBatteryLevel", "backgroundAppRefreshOffShare",
            "appBackgroundAppRefreshOffShare", "forceQuitShare", "usage", "charging", "batteryDrainPerHour", "chargePerHour",
            "startBattery", "network",
        ])
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = Self.defaults
        lowPowerModeShare = try c.decodeIfPresent(Double.self, forKey: .lowPowerModeShare) ?? d.lowPowerModeShare
        lowPowerModeWhenLowShare = try c.decodeIfPresent(Double.self, forKey: .lowPowerModeWhenLowShare) ?? d.lowPowerModeWhenLowShare
        lowPowerModeBatteryLevel = try c.decodeIfPresent(Int.self, forKey: .lowPowerModeBatteryLevel) ?? d.lowPowerModeBatteryLevel
        backgroundAppRefreshOffShare =
            try c.decodeIfPresent(Double.self, forKey: .backgroundAppRefreshOffShare) ?? d.backgroundAppRefreshOffShare
        appBackgroundAppRefreshOffShare =
            try c.decodeIfPresent(Double.self, forKey: .appBackgroundAppRefreshOffShare) ?? d.appBackgroundAppRefreshOffShare
        forceQuitShare = try c.decodeIfPresent(Double.self, forKey: .forceQuitShare) ?? d.forceQuitShare
        usage = try c.decodeIfPresent([ForecastUsagePattern].self, forKey: .usage) ?? d.usage
        charging = try c.decodeIfPresent([ForecastChargingHabit].self, forKey: .charging) ?? d.charging
        batteryDrainPerHour = try c.decodeIfPresent(ForecastRange.self, forKey: .batteryDrainPerHour) ?? d.batteryDrainPerHour
        chargePerHour = try c.decodeIfPresent(Double.self, forKey: .chargePerHour) ?? d.chargePerHour
        startBattery = try c.decodeIfPresent(ForecastRange.self, forKey: .startBattery) ?? d.startBattery
        network = try c.decodeIfPresent(ForecastNetworkMix.self, forKey: .network) ?? d.network
    }
}

/// A closed range of numbers, `{min, max}`.
public struct ForecastRange: Sendable, Equatable, Codable {
    /// The lower end.
    public var min: Double
    /// The upper end, at least `min`.
    public var max: Double
    public init(min: Double, max: Double) {
        self.min = min
        self.max = max
    }

    /// The value at `u` (0–1) of the way from `min` to `max`.
    func value(at u: Double) -> Double { min + (max - min) * u }
}
