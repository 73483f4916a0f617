import Emulation

/// `PUT …/activities/{activity}`: `{active, keepAliveInterval?}` (seconds, VoIP only).
struct SetActivityRequest: Decodable {
    var active: Bool
    var keepAliveInterval: Double?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["active", "keepAliveInterval"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        active = try c.decode(Bool.self, forKey: AnyKey("active"))
        keepAliveInterval = try c.decodeIfPresent(Double.self, forKey: AnyKey("keepAliveInterval"))
        if let keepAliveInterval, !(keepAliveInterval.isFinite && keepAliveInterval >= 0 && keepAliveInterval <= 86_400) {
            throw EmulationError.invalid([FieldIssue("keepAliveInterval", "must be from 600 to 86400 seconds")])
        }
    }
}

/// `{activity, active, keepsAppRunning, reason}`.
struct ActivityBody: Encodable {
    var outcome: ActivityOutcome

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(outcome.activity.rawValue, forKey: AnyKey("activity"))
        try c.encode(outcome.active, forKey: AnyKey("active"))
        try c.encode(outcome.keepsAppRunning, forKey: AnyKey("keepsAppRunning"))
        try c.encode(outcome.reason, forKey: AnyKey("reason"))
    }
}

/// `POST …/location`: `{latitude, longitude}`.
struct LocationRequest: Codable {
    var latitude: Double
    var longitude: Double

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["latitude", "longitude"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        latitude = try c.decode(Double.self, forKey: AnyKey("latitude"))
        longitude = try c.decode(Double.self, forKey: AnyKey("longitude"))
    }
}

/// `POST …/accessories/{accessoryId}/data`: `{transport: bluetooth|external}`.
struct AccessoryDataRequest: Decodable {
    var transport: AppActivity

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["transport"])
        switch try decoder.container(keyedBy: AnyKey.self).decode(String.self, forKey: AnyKey("transport")) {
        case "bluetooth": transport = .bluetooth
        case "external": transport = .externalAccessory
        default: throw EmulationError.invalid([FieldIssue("transport", "must be bluetooth or external")])
        }
    }
}

/// `POST …/newsstand-issue`: `{name}`.
struct NewsstandIssueRequest: Decodable {
    var name: String

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["name"])
        name = try decoder.container(keyedBy: AnyKey.self).decode(String.self, forKey: AnyKey("name"))
        if let problem = NameRule.problem(name, maximum: 200) { throw EmulationError.invalid([FieldIssue("name", problem)]) }
    }
}

/// What a location change or accessory data caused: the apps woken or relaunched.
struct WokenAppsBody: Encodable {
    var wokenApps: [String]
}
