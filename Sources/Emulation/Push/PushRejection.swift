/// APNs refuses a push: its HTTP status and its `reason` word, as Apple documents them
/// ("Handling notification responses from APNs", developer.apple.com/documentation/usernotifications).
/// Nothing about the push is kept.
public struct PushRejection: Error, Sendable, Equatable {
    public var status: Int
    /// APNs's own word (`BadTopic`, `PayloadTooLarge`, …); `BadPayload` is bgemu's, APNs documents no word for it.
    public var reason: String
    public var detail: String

    public init(_ status: Int, _ reason: String, _ detail: String) {
        self.status = status
        self.reason = reason
        self.detail = detail
    }
}
