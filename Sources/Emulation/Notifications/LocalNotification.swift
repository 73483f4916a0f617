/// A pending local notification (`UNNotificationRequest` / `UILocalNotification`), R40.
public struct LocalNotification: Sendable, Codable, Equatable {
    public var identifier: String
    /// When it fires next.
    public var fireDate: VirtualInstant
    /// The interval of a time-interval trigger; a repeating notification fires again this much later.
    public var timeInterval: VirtualDuration?
    public var repeats: Bool
    public var title: String?
    public var body: String?
    public var scheduledAt: VirtualInstant

    public init(
        identifier: String, fireDate: VirtualInstant, timeInterval: VirtualDuration? = nil, repeats: Bool = false,
        title: String? = nil, body: String? = nil, scheduledAt: VirtualInstant
    ) {
        self.identifier = identifier
        self.fireDate = fireDate
        self.timeInterval = timeInterval
        self.repeats = repeats
        self.title = title
        self.body = body
        self.scheduledAt = scheduledAt
    }

    /// iOS refuses a repeating time-interval trigger under 60 s.
    public static let minimumRepeatInterval = VirtualDuration(seconds: 60)
}
