import Foundation

/// A device to create (`CreateDevice` in openapi.yaml): what is nil takes the service's default.
public struct DeviceDraft: Sendable, Equatable {
    public var name: String
    public var osVersion: String?
    public var model: String?
    /// The seed of the device's random generator (an unsigned 64-bit integer, sent exactly).
    public var seed: UInt64?
    /// A clock that follows the wall clock instead of a manual one.
    public var realtime = false
    /// The clock's start, an RFC 3339 instant.
    public var start: String?
    /// The profile's constants overridden by name (`backgroundTaskAllowance`).
    public var policy: [String: Double] = [:]

    public init(
        name: String, osVersion: String? = nil, model: String? = nil, seed: UInt64? = nil, realtime: Bool = false,
        start: String? = nil, policy: [String: Double] = [:]
    ) {
        self.name = name
        self.osVersion = osVersion
        self.model = model
        self.seed = seed
        self.realtime = realtime
        self.start = start
        self.policy = policy
    }

    /// The request body.
    public var body: JSONValue {
        var body: [String: JSONValue] = ["name": .string(name)]
        if let osVersion { body["osVersion"] = .string(osVersion) }
        if let model { body["model"] = .string(model) }
        if let seed { body["seed"] = .integer(seed) }
        var clock: [String: JSONValue] = ["mode": .string(realtime ? "realtime" : "manual")]
        if let start { clock["start"] = .string(start) }
        body["clock"] = .object(clock)
        if !policy.isEmpty { body["policy"] = .object(policy.mapValues(JSONValue.number)) }
        return .object(body)
    }
}

/// How far an advance moves a device's clock.
public enum ClockTarget: Sendable, Equatable {
    case seconds(Double)
    /// An RFC 3339 instant.
    case instant(String)
}

extension APIClient {
    /// `/v1/devices/{device}`.
    static func devicePath(_ device: String, _ rest: String...) -> String { PathEncoding.path(["v1", "devices", device] + rest) }

    /// `POST /v1/devices`: the created device.
    public func createDevice(_ draft: DeviceDraft) throws(ClientFailure) -> JSONValue {
        try json("POST", "/v1/devices", body: draft.body)
    }

    /// `GET /v1/devices`, every page.
    public func devices() throws -> [JSONValue] { try allItems("/v1/devices") }

    /// `GET /v1/devices/{device}`.
    public func device(_ device: String) throws(ClientFailure) -> JSONValue {
        try json("GET", Self.devicePath(device))
    }

    /// `DELETE /v1/devices/{device}`.
    public func deleteDevice(_ device: String) throws(ClientFailure) {
        _ = try send("DELETE", Self.devicePath(device))
    }

    /// `POST …/clock/advance`: the clock after the advance (`now`, `eventsEmitted`, `stopped`). With
    /// `stopAtAppCode`, the advance stops right after an instant at which an app's code runs.
    public func advanceClock(_ device: String, _ target: ClockTarget, stopAtAppCode: Bool = false) throws(ClientFailure) -> JSONValue {
        var body: [String: JSONValue] = [:]
        switch target {
        case .seconds(let seconds): body["seconds"] = .number(seconds)
        case .instant(let instant): body["to"] = .string(instant)
        }
        if stopAtAppCode { body["stopAtAppCode"] = true }
        return try json("POST", Self.devicePath(device, "clock", "advance"), body: .object(body))
    }

    /// `GET …/clock`.
    public func clock(_ device: String) throws(ClientFailure) -> JSONValue {
        try json("GET", Self.devicePath(device, "clock"))
    }

    /// `PATCH …/conditions` (`lowPowerMode`, `backgroundAppRefresh`, `locked`, …).
    @discardableResult
    public func setConditions(_ device: String, _ patch: [String: JSONValue]) throws(ClientFailure) -> JSONValue {
        try json("PATCH", Self.devicePath(device, "conditions"), body: .object(patch))
    }

    /// `POST …/push`: an APNs payload as APNs delivers it; `headers` are its `apns-*` fields (`apns-topic`: the
    /// app). The answer says what became of it.
    public func push(_ device: String, payload: [UInt8], headers: [(String, String)]) throws(ClientFailure) -> JSONValue {
        try upload("POST", Self.devicePath(device, "push"), bytes: payload, contentType: "application/json", headers: headers)
    }
}
