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
