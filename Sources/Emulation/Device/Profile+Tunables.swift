/// A profile value that a device may override, by its wire name.
public struct ProfileTunable: Sendable {
    public enum Unit: String, Sendable {
        case seconds, count, percent
    }

    public let name: String
    public let unit: Unit
    public let range: ClosedRange<Double>
    let read: @Sendable (Profile) -> Double?
    let write: @Sendable (inout Profile, Double) -> Void

    /// The value in `profile`, in the tunable's unit; nil where the era has none.
    public func value(in profile: Profile) -> Double? { read(profile) }
}

extension Profile {
    /// Every value a device's `policy` may override.
    public static let tunables: [ProfileTunable] = [
        .duration("backgroundTaskAllowance", \.backgroundTaskAllowance, 1...3600),
        .duration("expirationWarning", \.expirationWarning, 0...60),
        .duration("lifecycleCallbackAllowance", \.lifecycleCallbackAllowance, 0...60),
        .optionalDuration("appRefreshRun", \.appRefreshRun, 1...600),
        .optionalDuration("processingRun", \.processingRun, 1...7200),
        .duration("runExpirationGrace", \.runExpirationGrace, 0...60),
        .duration("accessoryWakeRun", \.accessoryWakeRun, 1...600),
        .count("pendingNotificationLimit", \.pendingNotificationLimit, 1...1000),
        .duration("opportunityInterval", \.opportunityInterval, 10...86_400),
        .duration("opportunityJitter", \.opportunityJitter, 0...3600),
        .count("criticalBatteryLevel", \.criticalBatteryLevel, 0...100, unit: .percent),
        .count("dailyLaunchBudget", \.dailyLaunchBudget, 0...1000),
        .count("usageBudgetBonus", \.usageBudgetBonus, 0...1000),
        .duration("predictionLead", \.predictionLead, 0...7200),
        .count("predictionMinimumDays", \.predictionMinimumDays, 1...30),
        .duration("minimumLaunchSpacing", \.minimumLaunchSpacing, 0...86_400),
        .count("backgroundPushesPerHour", \.backgroundPushesPerHour, 0...1000),
        .count("wifiBandwidth", \.wifiBandwidth, 1...10_000_000_000),
        .count("cellularBandwidth", \.cellularBandwidth, 1...10_000_000_000),
        .duration("locationWakeRun", \.locationWakeRun, 1...600),
        .duration("voipRun", \.voipRun, 1...600),
        .count("significantChangeDistance", \.significantChangeDistance, 0...100_000),
        .duration("significantChangeInterval", \.significantChangeInterval, 0...86_400),
    ]

    public static func tunable(named name: String) -> ProfileTunable? { tunables.first { $0.name == name } }

    /// This profile with `overrides` (wire name → value in the tunable's unit) applied; names are not checked here.
    public func applying(_ overrides: [String: Double]) -> Profile {
        guard !overrides.isEmpty else { return self }  // most devices: no lookup per tunable
        var profile = self
        for tunable in Profile.tunables {
            if let value = overrides[tunable.name] { tunable.write(&profile, value) }
        }
        return profile
    }

    /// The issues of a `policy` object: unknown names and values out of range.
    public static func validate(_ overrides: [String: Double], fieldPrefix: String = "policy.") -> [FieldIssue] {
        overrides.keys.sorted().compactMap { name in
            guard let tunable = tunable(named: name) else {
                return FieldIssue(fieldPrefix + name, "is not a policy value; known: \(tunables.map(\.name).joined(separator: ", "))")
            }
            let value = overrides[name]!
            guard tunable.range.contains(value), value.isFinite else {
                return FieldIssue(
                    fieldPrefix + name,
                    "must be from \(tunable.range.lowerBound.formatted) to \(tunable.range.upperBound.formatted) (\(tunable.unit.rawValue))")
            }
            if tunable.unit != .seconds, value != value.rounded() {
                return FieldIssue(fieldPrefix + name, "must be a whole number")
            }
            return nil
        }
    }
}

extension ProfileTunable {
    static func duration(_ name: String, _ path: any WritableKeyPath<Profile, VirtualDuration> & Sendable, _ range: ClosedRange<Double>)
        -> ProfileTunable
    {
        ProfileTunable(
            name: name, unit: .seconds, range: range, read: { $0[keyPath: path].seconds },
            write: { $0[keyPath: path] = VirtualDuration(seconds: $1) })
    }

    static func optionalDuration(
        _ name: String, _ path: any WritableKeyPath<Profile, VirtualDuration?> & Sendable, _ range: ClosedRange<Double>
    ) -> ProfileTunable {
        ProfileTunable(
            name: name, unit: .seconds, range: range, read: { $0[keyPath: path]?.seconds },
            write: { $0[keyPath: path] = VirtualDuration(seconds: $1) })
    }

    static func count(
        _ name: String, _ path: any WritableKeyPath<Profile, Int> & Sendable, _ range: ClosedRange<Double>, unit: Unit = .count
    ) -> ProfileTunable {
        ProfileTunable(
            name: name, unit: unit, range: range, read: { Double($0[keyPath: path]) },
            write: { $0[keyPath: path] = Int($1) })
    }
}

extension Double {
    fileprivate var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}
