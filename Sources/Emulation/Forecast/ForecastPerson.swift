/// The person holding one synthetic device: settings and habits drawn from the population.
///
/// Drawn by `draw(_:device:)` from a `SeededGenerator` seeded from the request's `seed` and the device's index
/// only, so device *i* is the same person whatever the device count or the thread that runs it. Each trait takes
/// one uniform draw, in a fixed order, compared with the cumulative shares: raising a share only turns more
/// people to the trait (those who had it keep it, and every other trait is unchanged).
public struct ForecastPerson: Sendable, Equatable, Codable {
    /// When Low Power Mode is on.
    public enum LowPowerMode: String, Sendable, Codable {
        case off, allDay, whenLow
    }

    /// The name of the usage pattern (`commuter`, `evening`, `rare`, …).
    public var usage: String
    /// The name of the charging habit (`overnight`, `irregular`, …).
    public var charging: String
    /// Off, on all day, or on when the battery is low.
    public var lowPowerMode: LowPowerMode
    /// The device-wide Background App Refresh switch is off (R18).
    public var backgroundAppRefreshOff: Bool
    /// The app's own Background App Refresh switch is off (R18).
    public var appBackgroundAppRefreshOff: Bool
    /// Swipes the app away at the end of every session (R5).
    public var forceQuits: Bool
    /// Battery percent lost per hour unplugged (two decimals).
    public var drainPerHour: Double
    /// Battery percent at the start.
    public var startBattery: Int
    /// The seed of the device's own generator (opportunity jitter, R26).
    public var engineSeed: UInt64
    /// The seed of the draws of the person's days (opens, charging, network).
    public var daysSeed: UInt64

    /// The person of device `index`.
    public static func draw(_ request: ForecastRequest, device index: Int) -> ForecastPerson {
        let population = request.population
        var random = ForecastRandom(seed: request.seed, device: index)
        let lowPower = random.uniform()
        let lowPowerMode: LowPowerMode =
            lowPower < population.lowPowerModeShare ? .allDay
            : lowPower < population.lowPowerModeShare + population.lowPowerModeWhenLowShare ? .whenLow : .off
        let deviceSwitch = random.uniform() < population.backgroundAppRefreshOffShare
        let appSwitch = random.uniform() < population.appBackgroundAppRefreshOffShare
        let forceQuits = random.uniform() < population.forceQuitShare
        let usage = random.pick(population.usage.map(\.share))
        let charging = random.pick(population.charging.map(\.share))
        let drain = (population.batteryDrainPerHour.value(at: random.uniform()) * 100).rounded() / 100
        let battery = Int(population.startBattery.value(at: random.uniform()).rounded())
        return ForecastPerson(
            usage: population.usage.isEmpty ? "none" : population.usage[usage].name,
            charging: population.charging.isEmpty ? "none" : population.charging[charging].name,
            lowPowerMode: lowPowerMode, backgroundAppRefreshOff: deviceSwitch, appBackgroundAppRefreshOff: appSwitch,
            forceQuits: forceQuits, drainPerHour: drain, startBattery: min(100, max(1, battery)),
            engineSeed: random.next(), daysSeed: random.next())
    }
}

/// The forecast's draws: a `SeededGenerator` and the shapes drawn from it.
struct ForecastRandom {
    private var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// The stream of device `index` of a forecast seeded `seed`: the forecast seed is mixed once, then the index.
    init(seed: UInt64, device index: Int) {
        var base = SeededGenerator(seed: seed)
        generator = SeededGenerator(seed: base.next() ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        _ = generator.next()
    }

    mutating func next() -> UInt64 { generator.next() }

    /// Uniform in [0, 1), 53 bits.
    mutating func uniform() -> Double { Double(generator.next() >> 11) * 0x1p-53 }

    /// Triangular in (−1, 1): the sum of two uniforms, centred.
    mutating func triangular() -> Double { uniform() + uniform() - 1 }

    /// An index drawn by `weights` (0 for an empty or all-zero list).
    mutating func pick(_ weights: [Double]) -> Int {
        let u = uniform()
        let total = weights.reduce(0, +)
        guard total > 0 else { return 0 }
        var running = 0.0
        for (i, w) in weights.enumerated() {
            running += w
            if u * total < running { return i }
        }
        return weights.count - 1
    }
}
