import Foundation

/// Something that happened on an emulated device, as bgemu recorded it (the `Event` schema of its contract).
public struct DeviceEvent: Sendable, Equatable {
    /// The event's type, `<subject>.<what>` (`run.started`); an open vocabulary: ignore types you do not know.
    public struct EventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let appDelegate = EventType(rawValue: "app.delegate")
        public static let appStateChanged = EventType(rawValue: "app.stateChanged")
        public static let appTerminated = EventType(rawValue: "app.terminated")
        public static let appCrashed = EventType(rawValue: "app.crashed")
        public static let backgroundTaskBegan = EventType(rawValue: "backgroundTask.began")
        public static let backgroundTaskExpiring = EventType(rawValue: "backgroundTask.expiring")
        public static let backgroundTaskEnded = EventType(rawValue: "backgroundTask.ended")
        public static let taskRequestSubmitted = EventType(rawValue: "taskRequest.submitted")
        public static let taskRequestRejected = EventType(rawValue: "taskRequest.rejected")
        public static let taskRequestCancelled = EventType(rawValue: "taskRequest.cancelled")
        public static let runStarted = EventType(rawValue: "run.started")
        public static let runExpiring = EventType(rawValue: "run.expiring")
        public static let runCompleted = EventType(rawValue: "run.completed")
        public static let runExpired = EventType(rawValue: "run.expired")
        public static let pushReceived = EventType(rawValue: "push.received")
        public static let clockAdvanced = EventType(rawValue: "clock.advanced")
    }

    /// Service-wide, strictly increasing in recording order.
    public var id: Int64
    public var type: EventType
    /// The app the event is about; nil for the device's own events.
    public var bundleId: String?
    /// When it happened, in the device's virtual time.
    public var at: Date
    /// The event's details, by type (see the contract's `EventType`).
    public var data: [String: JSONValue]

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
