/// The network a device is on.
public enum NetworkKind: String, Sendable, Codable, CaseIterable {
    case wifi, cellular, none
}

/// What the system weighs before granting background time (R25): power, network, settings, the user.
public struct DeviceConditions: Sendable, Codable, Equatable {
    /// Percent, 0–100.
    public var batteryLevel: Int
    public var charging: Bool
    public var lowPowerMode: Bool
    public var network: NetworkKind
    /// The device-wide Background App Refresh switch.
    public var backgroundAppRefresh: Bool
    public var locked: Bool
    public var userActive: Bool

    public init(
        batteryLevel: Int = 100, charging: Bool = false, lowPowerMode: Bool = false, network: NetworkKind = .wifi,
        backgroundAppRefresh: Bool = true, locked: Bool = false, userActive: Bool = true
    ) {
        self.batteryLevel = batteryLevel
        self.charging = charging
        self.lowPowerMode = lowPowerMode
        self.network = network
        self.backgroundAppRefresh = backgroundAppRefresh
        self.locked = locked
        self.userActive = userActive
    }
}
