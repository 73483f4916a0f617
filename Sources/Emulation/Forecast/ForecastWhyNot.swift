/// Why a device never ran a kind: the eligibility conditions unmet at its opportunities.
///
/// Attribution: at each of the device's system opportunities after the install (R26), just before it fires, the
/// engine's conditions for the kind are evaluated (the same list the `eligibility` route gives) and each unmet one
/// is counted. A device that never ran the kind is charged to the condition unmet at the most of its opportunities;
/// a tie goes to the condition the engine weighs first (R25's order). `requestPending` is charged when no request
/// of the kind was pending (a refused submit, R18: its other unmet conditions are counted as well). A device whose
/// every sampled opportunity met every condition is charged to `none` (its chances came at predicted uses it
/// missed, or the opportunities passed before the conditions were met at a later instant).
struct ForecastWhyNot: Sendable {
    static let requestPending = "requestPending"
    static let none = "none"

    /// The engine's order of conditions (DeviceEngine.conditions), then the forecast's own.
    static let order = [
        "permitted", "launchHandlerRegistered", "earliestBeginDate", "networkAvailable", "externalPower", "deviceIdle",
        "fetchMode", "fetchInterval", "notInForeground", "batteryNotCritical", "lowPowerModeOff",
        "backgroundAppRefreshDevice", "backgroundAppRefreshApp", "usagePrediction", "notForceQuit", "budget",
        "rateLimit", "noOpenRun", requestPending,
    ]

    private var counts: [String: Int] = [:]

    mutating func count(_ unmet: [String]) {
        for name in unmet { counts[name, default: 0] += 1 }
    }

    /// The condition the device is charged with.
    var blocker: String {
        var best: (name: String, count: Int, rank: Int)?
        for (name, count) in counts {
            let rank = Self.order.firstIndex(of: name) ?? Self.order.count
            if let b = best, count < b.count || (count == b.count && (rank, name) > (b.rank, b.name)) { continue }
            best = (name, count, rank)
        }
        return best?.name ?? Self.none
    }
}
