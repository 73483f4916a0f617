/// The answer of a forecast (the `result` of `GET /v1/forecasts/{id}`): per run kind the app uses, how soon and how
/// often devices ran it and why the others did not; and what became of the fleet's pushes.
public struct ForecastResult: Sendable, Equatable, Codable {
    /// Devices run.
    public var devices: Int
    /// Days each device ran after its install.
    public var days: Int
    /// Present when the app submits app refresh requests at launch.
    public var appRefresh: ForecastKindSummary?
    /// Present when the app submits processing requests at launch.
    public var processing: ForecastKindSummary?
    /// Present when the app sets a fetch interval at launch.
    public var fetch: ForecastKindSummary?
    /// Present when the request sends pushes.
    public var pushes: ForecastPushSummary?

    /// The summary of `rows` (in device order) and the delivered pushes' delays.
    init(_ request: ForecastRequest, kinds: [RunKind], rows: [ForecastDeviceRow], pushDelays: [Int64]) {
        devices = rows.count
        days = request.days
        for kind in kinds {
            let summary = ForecastKindSummary(kind.rawValue, rows: rows, days: request.days)
            switch kind {
            case .appRefresh: appRefresh = summary
            case .processing: processing = summary
            case .fetch: fetch = summary
            default: break
            }
        }
        if !request.pushes.isEmpty { pushes = ForecastPushSummary(rows: rows, delays: pushDelays) }
    }
}

/// How one run kind fared over the fleet.
public struct ForecastKindSummary: Sendable, Equatable, Codable {
    /// Share of devices with at least one run within `1h`, `4h`, `24h` of the install.
    public var devicesWithRunWithin: [String: Double]
    /// Over the devices that ran: seconds from the install to the first run. nil when no device ran.
    public var firstRunDelaySeconds: ForecastPercentiles?
    /// Runs per device per day, over every device.
    public var runsPerDevicePerDay: ForecastSpread
    /// Share of the runs that expired (R22).
    public var expiredShare: Double
    /// Share of devices that never ran it.
    public var devicesWithoutRun: Double
    /// For the devices that never ran it, the share charged to each condition (`ForecastWhyNot`); sums to 1.
    public var whyNot: [String: Double]
    /// Element *h* is the share of all devices whose first run came within *h* hours of the install, for
    /// h = 0, 1, …, 24 × days: the cumulative curve the dashboard plots. Its last element is 1 − `devicesWithoutRun`, up to rounding.
    public var ranWithinHours: [Double]
    /// Runs per device per day over every device, in 12 equal-width bins from 0 to the largest value (one
    /// bin [0, 1) when no device ran); the devices of the bins sum to `devices`.
    public var runsPerDayHistogram: [ForecastHistogramBin]

    /// The windows of `devicesWithRunWithin`.
    public static let windows: [(name: String, seconds: Double)] = [("1h", 3600), ("4h", 14_400), ("24h", 86_400)]

    init(_ kind: String, rows: [ForecastDeviceRow], days: Int) {
        let tallies = rows.map { $0.runs[kind] ?? ForecastDeviceRuns() }
        let n = Double(max(1, tallies.count))
        let delays = tallies.compactMap(\.firstRunDelaySeconds).sorted()
        var within: [String: Double] = [:]
        for window in Self.windows {
            within[window.name] = ForecastNumbers.share(delays.filter { $0 <= window.seconds }.count, of: tallies.count)
        }
        devicesWithRunWithin = within
        firstRunDelaySeconds = delays.isEmpty ? nil : ForecastPercentiles(sorted: delays)
        let perDay = tallies.map { Double($0.started) / Double(max(1, days)) }
        runsPerDevicePerDay = ForecastSpread(perDay.reduce(0, +) / n, sorted: perDay.sorted())
        let started = tallies.reduce(0) { $0 + $1.started }
        expiredShare = ForecastNumbers.share(tallies.reduce(0) { $0 + $1.expired }, of: started)
        let never = tallies.filter { $0.started == 0 }
        devicesWithoutRun = ForecastNumbers.share(never.count, of: tallies.count)
        var counts: [String: Int] = [:]
        for tally in never { counts[tally.whyNot ?? ForecastWhyNot.none, default: 0] += 1 }
        whyNot = counts.mapValues { ForecastNumbers.share($0, of: never.count) }
        var ran = 0  // `delays` is sorted: one pass over it for every hour
        ranWithinHours = (0...(24 * max(1, days))).map { hour in
            while ran < delays.count, delays[ran] <= Double(hour) * 3600 { ran += 1 }
            return ForecastNumbers.share(ran, of: tallies.count)
        }
        runsPerDayHistogram = ForecastHistogramBin.bins(perDay)
    }
}

/// One bar of a histogram: the values in `[from, to)` (the last bin includes `to`), and how many devices had one.
public struct ForecastHistogramBin: Sendable, Equatable, Codable {
    /// The lower edge (included).
    public var from: Double
    /// The upper edge (excluded, but for the last bin).
    public var to: Double
    /// Devices with a value in the bin.
    public var devices: Int

    /// The bin `[from, to)` with `devices` in it.
    public init(from: Double, to: Double, devices: Int) {
        self.from = from
        self.to = to
        self.devices = devices
    }

    /// The most bins of a histogram.
    public static let maximumBins = 12

    /// `values` in `maximumBins` equal-width bins from 0 to the largest value; one bin [0, 1) when every value is 0
    /// (or there is none). A value equal to the upper edge goes in the last bin.
    static func bins(_ values: [Double]) -> [ForecastHistogramBin] {
        let top = values.max() ?? 0
        guard top > 0 else { return [ForecastHistogramBin(from: 0, to: 1, devices: values.count)] }
        let count = maximumBins
        var counts = Array(repeating: 0, count: count)
        for value in values {
            counts[min(count - 1, max(0, Int((value * Double(count) / top).rounded(.down))))] += 1
        }
        return counts.enumerated().map { index, devices in
            ForecastHistogramBin(
                from: top * Double(index) / Double(count),
                to: index == count - 1 ? top : top * Double(index + 1) / Double(count),
                devices: devices)
        }
    }
}

/// What became of the fleet's pushes (those sent after each device's install): `outcomes`, which exclude each other
/// and add up to every push sent; `overlapping`, figures that overlap them, under their own names; and the delays of
/// the delivered ones.
///
/// The flat shares (`deliveredAtOnce` … `pending`, `deferred`) are those of the first version of the result, kept for
/// the clients that read them: each is the share of its tally in `outcomes` or `overlapping`. `deferred` overlaps
/// the other five (`overlapping.deferredAtLeastOnce`): added to them, the six read as more than 1.
public struct ForecastPushSummary: Sendable, Equatable, Codable {
    /// Pushes sent to installed devices, over the fleet.
    public var sent: Int
    /// The exclusive outcomes: counts adding up to `sent`, shares adding up to 1. nil only in a result stored by a
    /// version before them.
    public var outcomes: ForecastPushOutcomes?
    /// Figures overlapping `outcomes` (nil as `outcomes` is).
    public var overlapping: ForecastPushOverlaps?
    /// `outcomes.deliveredAtOnce.share`.
    public var deliveredAtOnce: Double
    /// `overlapping.deferredAtLeastOnce.share`: first held by the power-aware policy (R30), whatever became of them.
    public var deferred: Double
    /// `outcomes.deliveredLater.share`.
    public var deliveredLater: Double
    /// `outcomes.coalesced.share`.
    public var coalesced: Double
    /// `outcomes.dropped.share`.
    public var dropped: Double
    /// `outcomes.pending.share`.
    public var pending: Double
    /// Seconds from sending to delivery, over the delivered pushes; nil when none was delivered.
    public var delaySeconds: ForecastPercentiles?

    init(rows: [ForecastDeviceRow], delays: [Int64]) {
        let all = rows.compactMap(\.pushes)
        func total(_ value: (ForecastDevicePushes) -> Int) -> Int { all.reduce(0) { $0 + value($1) } }
        sent = total(\.sent)
        var counts: [ForecastPushOutcome: Int] = [:]
        for outcome in ForecastPushOutcome.allCases { counts[outcome] = total(outcome.count) }
        let outcomes = ForecastPushOutcomes(counts: counts, sent: sent)
        let overlapping = ForecastPushOverlaps(
            deferred: total(\.deferred), delivered: outcomes.deliveredAtOnce.count + outcomes.deliveredLater.count,
            sent: sent)
        self.outcomes = outcomes
        self.overlapping = overlapping
        deliveredAtOnce = outcomes.deliveredAtOnce.share
        deferred = overlapping.deferredAtLeastOnce.share
        deliveredLater = outcomes.deliveredLater.share
        coalesced = outcomes.coalesced.share
        dropped = outcomes.dropped.share
        pending = outcomes.pending.share
        let seconds = delays.sorted().map { Double($0) / 1000 }
        delaySeconds = seconds.isEmpty ? nil : ForecastPercentiles(sorted: seconds)
    }
}

/// p50, p90, p99 (nearest rank).
public struct ForecastPercentiles: Sendable, Equatable, Codable {
    /// The median.
    public var p50: Double
    /// 90 % are at or below it.
    public var p90: Double
    /// 99 % are at or below it.
    public var p99: Double

    init(sorted values: [Double]) {
        p50 = ForecastNumbers.percentile(values, 0.5)
        p90 = ForecastNumbers.percentile(values, 0.9)
        p99 = ForecastNumbers.percentile(values, 0.99)
    }
}

/// Mean, p50, p90 (nearest rank).
public struct ForecastSpread: Sendable, Equatable, Codable {
    /// The mean (4 decimals).
    public var mean: Double
    /// The median (4 decimals).
    public var p50: Double
    /// 90 % are at or below it (4 decimals).
    public var p90: Double

    init(_ mean: Double, sorted values: [Double]) {
        self.mean = ForecastNumbers.rounded(mean)
        p50 = ForecastNumbers.rounded(ForecastNumbers.percentile(values, 0.5))
        p90 = ForecastNumbers.rounded(ForecastNumbers.percentile(values, 0.9))
    }
}

/// The forecast's arithmetic on shares and percentiles, public for what shows a forecast (its progress).
public enum ForecastNumbers {
    /// `part / whole` to 4 decimals; 0 for an empty whole.
    static func share(_ part: Int, of whole: Int) -> Double {
        whole == 0 ? 0 : rounded(Double(part) / Double(whole))
    }

    /// `value` to 4 decimals, as every share of a forecast is written.
    public static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }

    /// The nearest-rank percentile of sorted values: the smallest value with at least `p` of them at or below it.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }
}
