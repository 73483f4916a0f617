import Foundation

/// Something that happened on an emulated device, as bgemu recorded it (the `Event` schema of its contract).
public struct DeviceEvent: Sendable, Equatable {
    /// The event's type, `<subject>.<what>` (`run.started`); an open vocabulary: ignore types you do not know.
    public struct EventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The dotted name.
        public let rawValue: String
        /// The type named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A delegate callback (`callback`, `launchedBy`) (R1–R4).
        public static let appDelegate = EventType(rawValue: "app.delegate")
        /// The app's state changed (`from`, `to`, `cause`) (R1).
        public static let appStateChanged = EventType(rawValue: "app.stateChanged")
        /// The app ended (`reason`, `terminationCode`) (R4–R7, R12, R22).
        public static let appTerminated = EventType(rawValue: "app.terminated")
        /// The app crashed (`exception`, `reason`) (R16).
        public static let appCrashed = EventType(rawValue: "app.crashed")
        /// `beginBackgroundTask` (`taskId`) (R8).
        public static let backgroundTaskBegan = EventType(rawValue: "backgroundTask.began")
        /// A background task's expiration handler is called (R11).
        public static let backgroundTaskExpiring = EventType(rawValue: "backgroundTask.expiring")
        /// A background task ended (`reason`) (R13).
        public static let backgroundTaskEnded = EventType(rawValue: "backgroundTask.ended")
        /// A `submit` was accepted (R15–R17).
        public static let taskRequestSubmitted = EventType(rawValue: "taskRequest.submitted")
        /// A `submit` was refused (`code`) (R15, R17, R18).
        public static let taskRequestRejected = EventType(rawValue: "taskRequest.rejected")
        /// A pending request was cancelled.
        public static let taskRequestCancelled = EventType(rawValue: "taskRequest.cancelled")
        /// Background time was granted (`runId`, `kind`, `identifier`) (R20, R28, R31).
        public static let runStarted = EventType(rawValue: "run.started")
        /// A run's expiration handler is called (R22).
        public static let runExpiring = EventType(rawValue: "run.expiring")
        /// The app completed a run (`result`) (R23).
        public static let runCompleted = EventType(rawValue: "run.completed")
        /// A run was never completed; the app was terminated (R22).
        public static let runExpired = EventType(rawValue: "run.expired")
        /// A continued processing task reported its progress (R41).
        public static let runProgress = EventType(rawValue: "run.progress")
        /// A push reached the device (R29).
        public static let pushReceived = EventType(rawValue: "push.received")
        /// An advance of the clock ended (`from`, `to`).
        public static let clockAdvanced = EventType(rawValue: "clock.advanced")
        /// The device's conditions changed (`changes`: `{condition: {from, to}}`) (R25); no `bundleId`.
        public static let deviceConditionsChanged = EventType(rawValue: "device.conditionsChanged")
        /// The app's own settings changed (`backgroundAppRefresh`) (R18).
        public static let appSettingsChanged = EventType(rawValue: "app.settingsChanged")
        /// A local notification or a push's alert was shown (`source`, `identifier`, `title`, `body`) (R40).
        public static let notificationDelivered = EventType(rawValue: "notification.delivered")
    }

    /// Service-wide, strictly increasing in recording order.
    public var id: Int64
    /// What happened.
    public var type: EventType
    /// The app the event is about; nil for the device's own events.
    public var bundleId: String?
    /// When it happened, in the device's virtual time.
    public var at: Date
    /// The event's details, by type (see the contract's `EventType`).
    public var data: [String: JSONValue]

    /// An event with these parts.
    public init(id: Int64, type: EventType, bundleId: String?, at: Date, data: [String: JSONValue]) {
        self.id = id
        self.type = type
        self.bundleId = bundleId
        self.at = at
        self.data = data
    }

    /// The string member `key` of `data`.
    public func string(_ key: String) -> String? { data[key]?.stringValue }

    /// Reads one event of the service's JSON.
    init?(json: JSONValue) {
        guard let id = json["id"]?.numberValue, let type = json["type"]?.stringValue,
              let at = json["at"]?.stringValue.flatMap(VirtualTime.parse) else { return nil }
        var data: [String: JSONValue] = [:]
        if case .object(let members)? = json["data"] { data = members }
        self.init(id: Int64(id), type: EventType(rawValue: type), bundleId: json["bundleId"]?.stringValue, at: at, data: data)
    }
}
