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
    /// Per-device values that replace the profile's (`Profile.tunables` names them).
    public var policyOverrides: [String: Double]
    /// Timers, counters and the seeded generator.
    public var runtime: DeviceRuntime
    /// The name of the scenario whose run created the device; nil for a device a client created.
    public var scenario: String?

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
        self.policyOverrides = [:]
        self.runtime = DeviceRuntime(seed: seed)
    }

    /// The behaviour profile that `osVersion` selects, before this device's overrides.
    public var profile: Profile { Profile.for(osVersion) }

    /// The constants in force on this device: the profile with `policyOverrides` applied.
    public var policy: Profile { profile.applying(policyOverrides) }

    private enum CodingKeys: String, CodingKey {
        case id, tenantId, name, model, osVersion, multitaskingSupported, clock, conditions, seed, createdAt, apps
        case policyOverrides, runtime, scenario
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        tenantId = try c.decode(String.self, forKey: .tenantId)
        name = try c.decode(String.self, forKey: .name)
        model = try c.decode(String.self, forKey: .model)
        osVersion = try c.decode(OSVersion.self, forKey: .osVersion)
        multitaskingSupported = try c.decode(Bool.self, forKey: .multitaskingSupported)
        clock = try c.decode(DeviceClock.self, forKey: .clock)
        conditions = try c.decode(DeviceConditions.self, forKey: .conditions)
        seed = try c.decode(UInt64.self, forKey: .seed)
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        apps = try c.decode([App].self, forKey: .apps)
        policyOverrides = try c.decodeIfPresent([String: Double].self, forKey: .policyOverrides) ?? [:]
        runtime = try c.decodeIfPresent(DeviceRuntime.self, forKey: .runtime) ?? DeviceRuntime(seed: seed)
        scenario = try c.decodeIfPresent(String.self, forKey: .scenario)
    }

    /// The installed app with `bundleId`.
    public func app(_ bundleId: String) -> App? { apps.first { $0.bundleId == bundleId } }
}
