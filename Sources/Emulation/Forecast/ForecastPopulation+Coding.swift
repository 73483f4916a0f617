// The population's parts as JSON: every field by its name, an unknown key refused (as every request body).

extension ForecastRange {
    /// Every field by its name; an unknown key is an issue.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["min", "max"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        self.init(min: try c.decode(Double.self, forKey: AnyKey("min")), max: try c.decode(Double.self, forKey: AnyKey("max")))
    }
}

extension ForecastUsagePattern {
    /// Every field by its name; an unknown key is an issue.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["name", "share", "hours", "opensPerDay", "spreadMinutes", "sessionMinutes"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        self.init(
            name: try c.decode(String.self, forKey: AnyKey("name")), share: try c.decode(Double.self, forKey: AnyKey("share")),
            hours: try c.decode([Double].self, forKey: AnyKey("hours")),
            opensPerDay: try c.decode(Double.self, forKey: AnyKey("opensPerDay")),
            spreadMinutes: try c.decode(Double.self, forKey: AnyKey("spreadMinutes")),
            sessionMinutes: try c.decode(Double.self, forKey: AnyKey("sessionMinutes")))
    }
}

extension ForecastChargingHabit {
    /// Every field by its name; an unknown key is an issue.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["name", "share", "startHour", "durationHours", "daysShare", "spreadMinutes"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        self.init(
            name: try c.decode(String.self, forKey: AnyKey("name")), share: try c.decode(Double.self, forKey: AnyKey("share")),
            startHour: try c.decodeIfPresent(Double.self, forKey: AnyKey("startHour")),
            durationHours: try c.decode(Double.self, forKey: AnyKey("durationHours")),
            daysShare: try c.decode(Double.self, forKey: AnyKey("daysShare")),
            spreadMinutes: try c.decode(Double.self, forKey: AnyKey("spreadMinutes")))
    }
}

extension ForecastNetworkMix {
    /// Every field by its name; an unknown key is an issue.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["homeFromHour", "homeToHour", "home", "away"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        self.init(
            homeFromHour: try c.decode(Double.self, forKey: AnyKey("homeFromHour")),
            homeToHour: try c.decode(Double.self, forKey: AnyKey("homeToHour")),
            home: try c.decode(ForecastNetworkShares.self, forKey: AnyKey("home")),
            away: try c.decode(ForecastNetworkShares.self, forKey: AnyKey("away")))
    }
}

extension ForecastNetworkShares {
    /// Every field by its name; an unknown key is an issue.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["wifi", "cellular", "none"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        self.init(
            wifi: try c.decode(Double.self, forKey: AnyKey("wifi")), cellular: try c.decode(Double.self, forKey: AnyKey("cellular")),
            none: try c.decode(Double.self, forKey: AnyKey("none")))
    }
}
