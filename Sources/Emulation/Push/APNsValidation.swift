import Foundation

/// The checks APNs makes before it accepts a push, with APNs's own answers (R29). Source: Apple, "Sending
/// notification requests to APNs" (the `apns-*` headers) and "Handling notification responses from APNs" (the
/// table of status codes and `reason` words):
///
/// | Check                                                       | Status | Reason              |
/// |-------------------------------------------------------------|--------|---------------------|
/// | an `apns-*` header sent twice (checked by the API)          | 400    | `DuplicateHeaders`  |
/// | `apns-id` is not a canonical UUID                           | 400    | `BadMessageId`      |
/// | the payload is empty                                        | 400    | `PayloadEmpty`      |
/// | the payload is over 4096 bytes                              | 413    | `PayloadTooLarge`   |
/// | the payload is not a JSON object with an `aps` dictionary   | 400    | `BadPayload` (bgemu's word: APNs documents none) |
/// | no `apns-topic` and no `"Simulator Target Bundle"`          | 400    | `MissingTopic`      |
/// | the topic names no installed app (checked by the engine)    | 400    | `BadTopic`          |
/// | `apns-push-type` unknown, or a type not emulated (`voip`, …) | 400    | `InvalidPushType`   |
/// | `apns-priority` not 10, 5 or 1; a background push not 5     | 400    | `BadPriority`       |
/// | `apns-expiration` not whole UNIX seconds ≥ 0                | 400    | `BadExpirationDate` |
/// | `apns-collapse-id` over 64 bytes                            | 400    | `BadCollapseId`     |
///
/// Defaults where a header is absent (a `simctl push` file has none): the push type is `alert` when `aps` has an
/// alert, a sound or a badge, else `background`; the priority is 10 for an alert push and 5 for a background push.
public enum APNsValidation {
    /// The largest payload of an alert or background push, in bytes.
    public static let maximumPayload = 4096
    public static let maximumCollapseId = 64
    /// The key a `simctl push` file names its app with; stripped from the payload.
    public static let simulatorTargetKey = "Simulator Target Bundle"
    /// Push types APNs knows that the emulation does not deliver.
    static let otherPushTypes: Set<String> = [
        "voip", "complication", "fileprovider", "mdm", "location", "liveactivity", "pushtotalk", "widgets", "controls",
    ]

    /// The push APNs would accept for `request`, received at `now`; its topic is not yet matched to an app.
    public static func validate(_ request: PushRequest, now: VirtualInstant) throws(PushRejection) -> Push {
        guard UUID(uuidString: request.apnsId) != nil, request.apnsId.count == 36 else {
            throw PushRejection(400, "BadMessageId", "apns-id must be a UUID such as 123e4567-e89b-12d3-a456-4266554400a0.")
        }
        let text = String(decoding: request.payload, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text != "{}" else { throw PushRejection(400, "PayloadEmpty", "The payload is empty.") }
        guard var object = (try? JSONSerialization.jsonObject(with: Data(request.payload))) as? [String: Any] else {
            throw PushRejection(400, "BadPayload", "The payload must be a JSON object.")
        }
        let simulatorTarget = object.removeValue(forKey: simulatorTargetKey) as? String
        var size = request.payload.count
        if simulatorTarget != nil { size = (try? JSONSerialization.data(withJSONObject: object).count) ?? size }
        guard size <= maximumPayload else {
            throw PushRejection(413, "PayloadTooLarge", "The payload is \(size) bytes; APNs takes at most \(maximumPayload).")
        }
        guard let aps = object["aps"] as? [String: Any] else {
            throw PushRejection(400, "BadPayload", "The payload needs an aps dictionary.")
        }
        guard let topic = nonEmpty(request.topic) ?? nonEmpty(simulatorTarget) else {
            throw PushRejection(400, "MissingTopic", "Name the app in apns-topic (or \"\(simulatorTargetKey)\").")
        }
        let contentAvailable = (aps["content-available"] as? NSNumber)?.intValue == 1
        let hasAlert = aps["alert"] != nil || aps["sound"] != nil || aps["badge"] != nil
        let pushType = try self.pushType(request.pushType, hasAlert: hasAlert)
        let priority = try self.priority(request.priority, pushType: pushType)
        let (expiration, nowOrNever) = try self.expiration(request.expiration)
        if let collapseId = request.collapseId, collapseId.utf8.count > maximumCollapseId {
            throw PushRejection(400, "BadCollapseId", "apns-collapse-id is over \(maximumCollapseId) bytes.")
        }
        let (title, body) = alertText(aps["alert"])
        return Push(
            apnsId: request.apnsId, bundleId: topic, pushType: pushType, priority: priority,
            expiration: expiration, deliverNowOrNever: nowOrNever, collapseId: request.collapseId,
            contentAvailable: contentAvailable, alerting: pushType == .alert && hasAlert, title: title, body: body,
            receivedAt: now)
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    private static func pushType(_ header: String?, hasAlert: Bool) throws(PushRejection) -> Push.PushType {
        guard let header else { return hasAlert ? .alert : .background }
        if let type = Push.PushType(rawValue: header) { return type }
        if otherPushTypes.contains(header) {
            throw PushRejection(400, "InvalidPushType", "apns-push-type \(header) is not emulated yet; send alert or background.")
        }
        throw PushRejection(400, "InvalidPushType", "apns-push-type \(header) is not a push type.")
    }

    /// R29: a background push has priority 5; 10 is an error.
    private static func priority(_ header: String?, pushType: Push.PushType) throws(PushRejection) -> Int {
        guard let header else { return pushType == .background ? 5 : 10 }
        guard let value = Int(header), [10, 5, 1].contains(value) else {
            throw PushRejection(400, "BadPriority", "apns-priority must be 10, 5 or 1.")
        }
        if pushType == .background, value != 5 {
            throw PushRejection(400, "BadPriority", "A background push must have apns-priority 5 (R29).")
        }
        return value
    }

    private static func expiration(_ header: String?) throws(PushRejection) -> (VirtualInstant?, Bool) {
        guard let header else { return (nil, false) }
        guard let seconds = Int64(header), seconds >= 0, seconds < 253_402_300_800 else {
            throw PushRejection(400, "BadExpirationDate", "apns-expiration must be UNIX seconds, or 0.")
        }
        if seconds == 0 { return (nil, true) }
        return (VirtualInstant(milliseconds: seconds * 1000), false)
    }

    private static func alertText(_ alert: Any?) -> (String?, String?) {
        if let text = alert as? String { return (nil, text) }
        guard let alert = alert as? [String: Any] else { return (nil, nil) }
        return (alert["title"] as? String, alert["body"] as? String)
    }
}
