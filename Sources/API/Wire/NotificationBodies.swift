import Emulation

/// `POST …/notifications`: a local notification request (R40).
struct ScheduleNotificationRequest: Decodable {
    var identifier: String
    var fireDate: String?
    var timeInterval: Double?
    var repeats: Bool
    var title: String?
    var body: String?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["identifier", "fireDate", "timeInterval", "repeats", "title", "body"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        identifier = try c.decode(String.self, forKey: AnyKey("identifier"))
        fireDate = try c.decodeIfPresent(String.self, forKey: AnyKey("fireDate"))
        timeInterval = try c.decodeIfPresent(Double.self, forKey: AnyKey("timeInterval"))
        repeats = try c.decodeIfPresent(Bool.self, forKey: AnyKey("repeats")) ?? false
        title = try c.decodeIfPresent(String.self, forKey: AnyKey("title"))
        body = try c.decodeIfPresent(String.self, forKey: AnyKey("body"))
        if (fireDate == nil) == (timeInterval == nil) {
            throw EmulationError.invalid([FieldIssue("fireDate", "send either fireDate or timeInterval")])
        }
    }

    func notification(scheduledAt now: VirtualInstant) throws -> LocalNotification {
        var fire: VirtualInstant
        var interval: VirtualDuration?
        if let fireDate {
            guard let instant = RFC3339.parse(fireDate) else {
                throw EmulationError.invalid([FieldIssue("fireDate", "must be an RFC 3339 date-time")])
            }
            fire = instant
        } else {
            let seconds = timeInterval ?? 0
            guard seconds.isFinite, seconds <= 366 * 86_400 else {
                throw EmulationError.invalid([FieldIssue("timeInterval", "must be at most a year, in seconds")])
            }
            interval = .seconds(seconds)
            fire = now + .seconds(seconds)
        }
        return LocalNotification(
            identifier: identifier, fireDate: fire, timeInterval: interval, repeats: repeats, title: title, body: body,
            scheduledAt: now)
    }
}

/// A pending local notification as answered.
struct NotificationBody: Encodable {
    var notification: LocalNotification

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(notification.identifier, forKey: AnyKey("identifier"))
        try c.encode(RFC3339.format(notification.fireDate), forKey: AnyKey("fireDate"))
        try c.encode(notification.timeInterval?.seconds, forKey: AnyKey("timeInterval"))
        try c.encode(notification.repeats, forKey: AnyKey("repeats"))
        try c.encode(notification.title, forKey: AnyKey("title"))
        try c.encode(notification.body, forKey: AnyKey("body"))
        try c.encode(RFC3339.format(notification.scheduledAt), forKey: AnyKey("scheduledAt"))
    }
}
