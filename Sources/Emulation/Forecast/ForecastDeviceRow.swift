/// One device of a forecast, for the per-device CSV: its person, its runs, its first-run delays, its pushes.
public struct ForecastDeviceRow: Sendable, Equatable, Codable {
    /// The device's index, 0-based.
    public var device: Int
    /// The person drawn for it.
    public var person: ForecastPerson
    /// Seconds from midnight of day 0 to the app's install (the first open).
    public var installedAtSeconds: Double
    /// How many times the user opened the app (the install included).
    public var opens: Int
    /// Per run kind (`appRefresh`, `processing`, `fetch`, and `remoteNotification` when pushes were sent).
    public var runs: [String: ForecastDeviceRuns]
    /// What became of the fleet's pushes on this device; nil when none were sent.
    public var pushes: ForecastDevicePushes?
}

/// The runs of one kind on one device.
public struct ForecastDeviceRuns: Sendable, Equatable, Codable {
    /// Runs started.
    public var started: Int = 0
    /// Runs that expired (R22: not completed in time, or their app ended).
    public var expired: Int = 0
    /// Seconds from the install to the first run; nil when none ran.
    public var firstRunDelaySeconds: Double?
    /// For a device that never ran the kind: the condition charged with it (`ForecastWhyNot`).
    public var whyNot: String?
}

/// The fate of each push sent to one device after its install. `deliveredAtOnce + deliveredLater + coalesced +
/// dropped + pending == sent`; `deferred` counts those first held by the power-aware policy (R30), whatever became
/// of them.
public struct ForecastDevicePushes: Sendable, Equatable, Codable {
    /// Pushes sent after the install.
    public var sent = 0
    /// Delivered when received.
    public var deliveredAtOnce = 0
    /// First held by the power-aware policy.
    public var deferred = 0
    /// Delivered after a deferral.
    public var deliveredLater = 0
    /// Replaced while deferred.
    public var coalesced = 0
    /// Never delivered.
    public var dropped = 0
    /// Still deferred when the forecast ended.
    public var pending = 0
}
