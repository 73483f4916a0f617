/// Something that happened on a device, at a virtual instant. The storage layer gives it its id and wall time.
public struct EmulationEvent: Sendable, Equatable, Codable {
    public var type: EventType
    public var bundleId: String?
    public var at: VirtualInstant
    public var data: [String: EventValue]

    public init(type: EventType, bundleId: String? = nil, at: VirtualInstant, data: [String: EventValue] = [:]) {
        self.type = type
        self.bundleId = bundleId
        self.at = at
        self.data = data
    }
}

/// The dotted type of an event (`app.stateChanged`). An open vocabulary; the core's own are listed here.
public struct EventType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static let deviceCreated = EventType("device.created")
    public static let deviceConditionsChanged = EventType("device.conditionsChanged")
    public static let devicePolicyChanged = EventType("device.policyChanged")
    public static let deviceRebooted = EventType("device.rebooted")
    public static let clockAdvanced = EventType("clock.advanced")
    public static let appInstalled = EventType("app.installed")
    public static let appUninstalled = EventType("app.uninstalled")
    public static let appSettingsChanged = EventType("app.settingsChanged")
    public static let appDelegate = EventType("app.delegate")
    public static let appStateChanged = EventType("app.stateChanged")
    public static let appTerminated = EventType("app.terminated")
    public static let appCrashed = EventType("app.crashed")
    public static let backgroundTaskBegan = EventType("backgroundTask.began")
    public static let backgroundTaskExpiring = EventType("backgroundTask.expiring")
    public static let backgroundTaskEnded = EventType("backgroundTask.ended")
    public static let taskRequestSubmitted = EventType("taskRequest.submitted")
    public static let taskRequestRejected = EventType("taskRequest.rejected")
    public static let taskRequestCancelled = EventType("taskRequest.cancelled")
    public static let runStarted = EventType("run.started")
    public static let runExpiring = EventType("run.expiring")
    public static let runCompleted = EventType("run.completed")
    public static let runExpired = EventType("run.expired")
    public static let runProgress = EventType("run.progress")
    public static let fetchIntervalChanged = EventType("fetch.intervalChanged")
    public static let pushReceived = EventType("push.received")
    public static let pushDelivered = EventType("push.delivered")
    public static let pushDeferred = EventType("push.deferred")
    public static let pushCoalesced = EventType("push.coalesced")
    public static let pushDropped = EventType("push.dropped")
    public static let notificationScheduled = EventType("notification.scheduled")
    public static let notificationDelivered = EventType("notification.delivered")
    public static let notificationDropped = EventType("notification.dropped")
    public static let notificationCancelled = EventType("notification.cancelled")
}
