import Foundation

/// A virtual iOS device: its profile, clock, conditions and installed apps. It is the unit of emulation and of
/// persistence: everything that happens on it is serialized, and it is stored as one document.
public struct Device: Sendable, Codable, Equatable {
    public var id: String
    public var tenantId: String
    public var name: String
    /// The hardware model, free text (`iPhone15,2`).
    public var model: String
    public var osVersion: OSVersion
    /// False emulates the few iOS 4 devices without multitasking (R14).
    public var multitaskingSupported: Bool
    public var clock: DeviceClock
    public var conditions: DeviceConditions
    /// Seeds the device's random generator: the same seed and requests give the same events.
    public var seed: UInt64
    /// Wall-clock time of creation.
    public var createdAt: Date
    /// Installed apps in installation order.
    public var apps: [App]

    public init(
        id: String, tenantId: String, name: String, model: String = "iPhone", osVersion: OSVersion = .default,
        multitaskingSupported: Bool = true, clock: DeviceClock = DeviceClock(), conditions: DeviceConditions = .init(),
        seed: UInt64 = 0, createdAt: Date, apps: [App] = []
    ) {
        self.id = id
        self.tenantId = tenantId
        self.name = name
        self.model = model
        self.osVersion = osVersion
        self.multitaskingSupported = multitaskingSupported
        self.clock = clock
        self.conditions = conditions
        self.seed = seed
        self.createdAt = createdAt
        self.apps = apps
    }

    /// The behaviour profile that `osVersion` selects.
    public var profile: Profile { Profile.for(osVersion) }

    /// The installed app with `bundleId`.
    public func app(_ bundleId: String) -> App? { apps.first { $0.bundleId == bundleId } }
}
