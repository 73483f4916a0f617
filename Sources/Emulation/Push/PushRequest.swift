/// A push as the provider sends it to APNs: the payload bytes and the `apns-*` headers, not yet validated.
public struct PushRequest: Sendable, Equatable {
    /// `apns-topic`: the bundle id.
    public var topic: String?
    /// `apns-push-type`: `alert`, `background`, …
    public var pushType: String?
    /// `apns-priority`: `10`, `5` or `1`.
    public var priority: String?
    /// `apns-expiration`: UNIX seconds; `0` means deliver now or never.
    public var expiration: String?
    /// `apns-collapse-id`: at most 64 bytes.
    public var collapseId: String?
    /// `apns-id`: a canonical UUID.
    public var apnsId: String
    /// The JSON payload as sent (a `simctl push` file may name the app in `"Simulator Target Bundle"`).
    public var payload: [UInt8]

    public init(
        apnsId: String, payload: [UInt8], topic: String? = nil, pushType: String? = nil, priority: String? = nil,
        expiration: String? = nil, collapseId: String? = nil
    ) {
        self.apnsId = apnsId
        self.payload = payload
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseId = collapseId
    }
}
