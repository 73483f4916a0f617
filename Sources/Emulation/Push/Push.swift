/// A push APNs accepted for an app on the device (R29–R31).
public struct Push: Sendable, Codable, Equatable {
    /// The push types the emulation delivers; APNs knows more (`voip`, `location`, …) that are not emulated here.
    public enum PushType: String, Sendable, Codable {
        case alert, background
    }

    public var apnsId: String
    public var bundleId: String
    public var pushType: PushType
    /// 10 (immediately), 5 (power-aware) or 1 (lowest).
    public var priority: Int
    /// After this instant APNs stops trying; nil when the provider set none. `deliverNowOrNever` for `0`.
    public var expiration: VirtualInstant?
    /// `apns-expiration: 0`: delivered at once or dropped, never stored.
    public var deliverNowOrNever: Bool
    public var collapseId: String?
    /// `aps.content-available: 1`: the app is woken (R29).
    public var contentAvailable: Bool
    /// `aps` has an alert, a sound or a badge: the user sees a notification.
    public var alerting: Bool
    public var title: String?
    public var body: String?
    public var receivedAt: VirtualInstant

    /// Whether the push, at `now`, may no longer be delivered.
    func isExpired(at now: VirtualInstant) -> Bool {
        guard let expiration else { return false }
        return expiration <= now
    }
}

/// What the emulation did with an accepted push.
public struct PushOutcome: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Delivered: a notification shown and/or the app woken (`runId`).
        case delivered
        /// Held by the power-aware policy until it allows, or the user launches the app (R30).
        case deferred
        /// Deferred, replacing an older deferred push for the app (R30); `replacedApnsId` names it.
        case coalesced
        /// Never delivered (`reason` says why).
        case dropped
    }

    public var apnsId: String
    public var kind: Kind
    /// `modeMissing`, `forceQuit`, `expired`, `lowPowerMode`, `throttled`, … nil for a plain delivery.
    public var reason: String?
    /// The `remoteNotification` run of a woken app.
    public var runId: String?
    /// Whether a notification was shown to the user.
    public var notificationDelivered: Bool
    public var replacedApnsId: String?

    public init(
        apnsId: String, kind: Kind, reason: String? = nil, runId: String? = nil, notificationDelivered: Bool = false,
        replacedApnsId: String? = nil
    ) {
        self.apnsId = apnsId
        self.kind = kind
        self.reason = reason
        self.runId = runId
        self.notificationDelivered = notificationDelivered
        self.replacedApnsId = replacedApnsId
    }
}

/// An app's push state: its deferred push and recent background deliveries (R30). Absent on devices stored
/// before pushes existed, hence optional in `AppRuntime`.
public struct AppPushes: Sendable, Codable, Equatable {
    /// Deferred pushes, oldest first (coalescing keeps at most one).
    public var deferred: [Push] = []
    /// When background pushes were delivered in the last hour, for throttling.
    public var recentDeliveries: [VirtualInstant] = []

    public init() {}
}
