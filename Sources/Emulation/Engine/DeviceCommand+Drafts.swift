/// What a command carries that becomes a model value only once the engine's `now` is known: a task request, a
/// notification, a transfer, a change of conditions.

/// A `BGTaskScheduler.submit` before it is submitted: `submittedAt` is the engine's `now`.
public struct TaskRequestDraft: Sendable, Equatable {
    public var kind: TaskRequestKind
    public var identifier: String
    public var earliestBeginDate: CommandTime?
    public var requiresNetworkConnectivity: Bool
    public var requiresExternalPower: Bool
    /// Continued processing requests only (R41).
    public var continued: ContinuedProcessingOptions?

    public init(
        kind: TaskRequestKind, identifier: String, earliestBeginDate: CommandTime? = nil,
        requiresNetworkConnectivity: Bool = false, requiresExternalPower: Bool = false,
        continued: ContinuedProcessingOptions? = nil
    ) {
        self.kind = kind
        self.identifier = identifier
        self.earliestBeginDate = earliestBeginDate
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
        self.requiresExternalPower = requiresExternalPower
        self.continued = continued
    }

    /// The request submitted at `now`; a continued processing request's `earliestBeginDate` is ignored, as
    /// Apple's scheduler ignores it "in favor of `NSDate.now`" (R41).
    public func request(submittedAt now: VirtualInstant) throws -> TaskRequest {
        TaskRequest(
            kind: kind, identifier: identifier,
            earliestBeginDate: kind == .continuedProcessing ? nil
                : try earliestBeginDate.map { try $0.resolved(from: now, field: "earliestBeginDate") },
            requiresNetworkConnectivity: requiresNetworkConnectivity, requiresExternalPower: requiresExternalPower,
            submittedAt: now, continued: kind == .continuedProcessing ? continued ?? ContinuedProcessingOptions(title: "", subtitle: "") : nil)
    }
}

/// A local notification request before it is scheduled: exactly one of `fireDate` and `timeInterval` (seconds
/// from the engine's `now`, at most a year).
public struct NotificationDraft: Sendable, Equatable {
    public var identifier: String
    public var fireDate: CommandTime?
    public var timeInterval: Double?
    public var repeats: Bool
    public var title: String?
    public var body: String?

    public init(
        identifier: String, fireDate: CommandTime? = nil, timeInterval: Double? = nil, repeats: Bool = false,
        title: String? = nil, body: String? = nil
    ) {
        self.identifier = identifier
        self.fireDate = fireDate
        self.timeInterval = timeInterval
        self.repeats = repeats
        self.title = title
        self.body = body
    }

    /// The notification scheduled at `now`.
    public func notification(scheduledAt now: VirtualInstant) throws -> LocalNotification {
        var fire: VirtualInstant
        var interval: VirtualDuration?
        if let fireDate {
            fire = try fireDate.resolved(from: now, field: "fireDate")
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

/// A download or upload a background session is to run.
public struct TransferDraft: Sendable, Equatable {
    public var kind: Transfer.Kind
    public var bytes: Int64
    public var earliestBeginDate: CommandTime?
    public var countOfBytesClientExpectsToReceive: Int64?

    public init(
        kind: Transfer.Kind, bytes: Int64, earliestBeginDate: CommandTime? = nil,
        countOfBytesClientExpectsToReceive: Int64? = nil
    ) {
        self.kind = kind
        self.bytes = bytes
        self.earliestBeginDate = earliestBeginDate
        self.countOfBytesClientExpectsToReceive = countOfBytesClientExpectsToReceive
    }
}

/// Some of a device's conditions; nil leaves one as it is. Values are checked when applied, every bad one named.
public struct ConditionsChange: Sendable, Equatable {
    public var batteryLevel: Int?
    public var charging: Bool?
    public var lowPowerMode: Bool?
    /// `wifi`, `cellular` or `none`.
    public var network: String?
    public var backgroundAppRefresh: Bool?
    public var locked: Bool?
    public var userActive: Bool?

    public init(
        batteryLevel: Int? = nil, charging: Bool? = nil, lowPowerMode: Bool? = nil, network: String? = nil,
        backgroundAppRefresh: Bool? = nil, locked: Bool? = nil, userActive: Bool? = nil
    ) {
        self.batteryLevel = batteryLevel
        self.charging = charging
        self.lowPowerMode = lowPowerMode
        self.network = network
        self.backgroundAppRefresh = backgroundAppRefresh
        self.locked = locked
        self.userActive = userActive
    }

    /// `conditions` with this change applied, or the issues that prevent it; `prefix` names the container.
    public func applied(to conditions: DeviceConditions, prefix: String = "") throws -> DeviceConditions {
        var result = conditions
        var issues: [FieldIssue] = []
        if let batteryLevel {
            if (0...100).contains(batteryLevel) { result.batteryLevel = batteryLevel } else {
                issues.append(FieldIssue(prefix + "batteryLevel", "must be an integer from 0 to 100"))
            }
        }
        if let network {
            if let kind = NetworkKind(rawValue: network) { result.network = kind } else {
                issues.append(FieldIssue(prefix + "network", "must be one of wifi, cellular, none"))
            }
        }
        if let charging { result.charging = charging }
        if let lowPowerMode { result.lowPowerMode = lowPowerMode }
        if let backgroundAppRefresh { result.backgroundAppRefresh = backgroundAppRefresh }
        if let locked { result.locked = locked }
        if let userActive { result.userActive = userActive }
        guard issues.isEmpty else { throw EmulationError.invalid(issues) }
        return result
    }
}

extension CommandTime {
    /// The instant this time names at `now`; `field` names it in the error of a date-time that does not parse.
    public func resolved(from now: VirtualInstant, field: String) throws -> VirtualInstant {
        switch self {
        case .at(let instant): return instant
        case .after(let duration): return now + duration
        case .rfc3339(let text):
            guard let instant = RFC3339.parse(text) else {
                throw EmulationError.invalid([FieldIssue(field, "must be an RFC 3339 date-time")])
            }
            return instant
        }
    }
}
