import CompactJSON
import Emulation
import Service

/// `POST /v1/devices`.
struct CreateDeviceRequest: Decodable {
    var name: String
    var model: String?
    var osVersion: String?
    var multitaskingSupported: Bool?
    var clock: ClockRequest?
    var conditions: ConditionsPatch?
    var seed: UInt64?
    var policy: [String: Double]?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: [
            "name", "model", "osVersion", "multitaskingSupported", "clock", "conditions", "seed", "policy",
        ])
        let c = try decoder.container(keyedBy: AnyKey.self)
        name = try c.decode(String.self, forKey: AnyKey("name"))
        model = try c.decodeIfPresent(String.self, forKey: AnyKey("model"))
        osVersion = try c.decodeIfPresent(String.self, forKey: AnyKey("osVersion"))
        multitaskingSupported = try c.decodeIfPresent(Bool.self, forKey: AnyKey("multitaskingSupported"))
        clock = try c.decodeIfPresent(ClockRequest.self, forKey: AnyKey("clock"))
        conditions = try c.decodeIfPresent(ConditionsPatch.self, forKey: AnyKey("conditions"))
        seed = try c.decodeIfPresent(UInt64.self, forKey: AnyKey("seed"))
        policy = try c.decodeIfPresent([String: Double].self, forKey: AnyKey("policy"))
    }
}

/// The `clock` object of a new device.
struct ClockRequest: Decodable {
    var mode: String?
    var scale: Double?
    var start: String?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["mode", "scale", "start"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        mode = try c.decodeIfPresent(String.self, forKey: AnyKey("mode"))
        scale = try c.decodeIfPresent(Double.self, forKey: AnyKey("scale"))
        start = try c.decodeIfPresent(String.self, forKey: AnyKey("start"))
    }
}

/// Any subset of a device's conditions (`PATCH …/conditions`, and `conditions` of a new device).
struct ConditionsPatch: Decodable {
    var batteryLevel: Int?
    var charging: Bool?
    var lowPowerMode: Bool?
    var network: String?
    var backgroundAppRefresh: Bool?
    var locked: Bool?
    var userActive: Bool?

    static let fields: [String] = [
        "batteryLevel", "charging", "lowPowerMode", "network", "backgroundAppRefresh", "locked", "userActive",
    ]

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: Self.fields)
        let c = try decoder.container(keyedBy: AnyKey.self)
        batteryLevel = try c.decodeIfPresent(Int.self, forKey: AnyKey("batteryLevel"))
        charging = try c.decodeIfPresent(Bool.self, forKey: AnyKey("charging"))
        lowPowerMode = try c.decodeIfPresent(Bool.self, forKey: AnyKey("lowPowerMode"))
        network = try c.decodeIfPresent(String.self, forKey: AnyKey("network"))
        backgroundAppRefresh = try c.decodeIfPresent(Bool.self, forKey: AnyKey("backgroundAppRefresh"))
        locked = try c.decodeIfPresent(Bool.self, forKey: AnyKey("locked"))
        userActive = try c.decodeIfPresent(Bool.self, forKey: AnyKey("userActive"))
    }

    /// The change this patch asks for.
    var change: ConditionsChange {
        ConditionsChange(
            batteryLevel: batteryLevel, charging: charging, lowPowerMode: lowPowerMode, network: network,
            backgroundAppRefresh: backgroundAppRefresh, locked: locked, userActive: userActive)
    }

}

/// A device as answered.
struct DeviceBody: Encodable, Equatable, Sendable {
    var id: String
    var name: String
    var model: String
    var osVersion: String
    var multitaskingSupported: Bool
    var profile: String
    /// Encoded once per distinct policy (every device of a profile without overrides shares one).
    var policy: JSONFragment<PolicyBody>
    var policyOverrides: [String: Double]
    var clock: ClockBody
    var conditions: DeviceConditions
    var seed: UInt64
    var createdAt: String
    var appCount: Int
    /// The scenario whose run created the device, or null.
    @ExplicitNull var scenario: String?

    init(_ device: Device, wallMilliseconds: Int64) {
        id = device.id
        name = device.name
        model = device.model
        osVersion = device.osVersion.description
        multitaskingSupported = device.multitaskingSupported
        profile = device.profile.name
        policy = PolicyBody.fragment(device.policy)
        policyOverrides = device.policyOverrides
        clock = ClockBody(device.clock, wallMilliseconds: wallMilliseconds)
        conditions = device.conditions
        seed = device.seed
        createdAt = device.createdAt.rfc3339
        appCount = device.apps.count
        scenario = device.scenario
    }
}

/// A device's clock: `{mode, now, scale}`.
struct ClockBody: Encodable, Equatable, Sendable {
    var mode: String
    var now: String
    var scale: Double

    init(_ clock: DeviceClock, wallMilliseconds: Int64) {
        mode = clock.mode.rawValue
        now = RFC3339.format(clock.now(wallMilliseconds: wallMilliseconds))
        scale = clock.scale
    }
}

/// The constants in force on a device, by their `policy` names (durations in seconds); null where the era has none.
struct PolicyBody: Encodable, Equatable, Sendable {
    var profile: Profile

    init(_ profile: Profile) { self.profile = profile }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        for tunable in Profile.tunables {
            try c.encode(tunable.value(in: profile), forKey: AnyKey(tunable.name))
        }
        try c.encode(profile.bgTaskSchedulerAvailable, forKey: AnyKey("bgTaskSchedulerAvailable"))
    }
}
