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
    /// Whether the push was delivered to the app in the foreground: its delegate got it at once, with no run and
    /// outside the background-push budget (R30).
    public var inForeground: Bool

    public init(
        apnsId: String, kind: Kind, reason: String? = nil, runId: String? = nil, notificationDelivered: Bool = false,
        replacedApnsId: String? = nil, inForeground: Bool = false
    ) {
        self.apnsId = apnsId
        self.kind = kind
        self.reason = reason
        self.runId = runId
        self.notificationDelivered = notificationDelivered
        self.replacedApnsId = replacedApnsId
        self.inForeground = inForeground
    }
}
