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

    /// The notification `bundleId` schedules; its time is read when it is applied.
    func command(bundleId: String) -> DeviceCommand {
        .scheduleNotification(bundleId: bundleId, NotificationDraft(
            identifier: identifier, fireDate: fireDate.map(CommandTime.rfc3339), timeInterval: timeInterval, repeats: repeats,
            title: title, body: body))
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
