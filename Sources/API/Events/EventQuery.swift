import Emulation
import HTTPServer

/// The query of an event route: its filters and where to start.
struct EventQuery {
    var filter: EventFilter

    /// `deviceId`, `bundleId` and `type` (a prefix such as `run.`); an empty value filters nothing. On a device's
    /// own route the device comes from the path, and a `deviceId` parameter naming another one is refused.
    init(_ request: HTTPRequest, pathDeviceId: String?) throws {
        let deviceId = Self.value("deviceId", request)
        if let pathDeviceId, let deviceId, deviceId != pathDeviceId {
            throw Problems.invalid("deviceId", "must be the device of the path, or left out")
        }
        filter = EventFilter(
            deviceId: pathDeviceId ?? deviceId, bundleId: Self.value("bundleId", request),
            typePrefix: Self.value("type", request))
    }

    /// Where a stream resumes: the `Last-Event-ID` header, or `?lastEventId=` (WHATWG HTML §9.2.4: the id of the
    /// last event the client saw); nil for live events only. The ids this service sends are integers, so anything
    /// else is a `400`.
    static func lastEventId(_ request: HTTPRequest) throws -> Int64? {
        guard let text = LastEventID.from(request) else { return nil }
        guard let id = eventId(text) else {
            throw Problems.malformed("Last-Event-ID must be the id of an event: a non-negative integer, not \"\(text)\".")
        }
        return id
    }

    /// Where a page starts: after the event id of `?after=` or of the page cursor (the last id of the previous
    /// page), or at the oldest event.
    static func afterId(_ request: HTTPRequest, cursor: String?) throws -> Int64 {
        let after = value("after", request)
        if after != nil, cursor != nil { throw Problems.invalid("after", "give either after or cursor, not both") }
        guard let text = after ?? cursor else { return 0 }
        guard let id = eventId(text) else {
            throw Problems.invalid(after != nil ? "after" : "cursor", "must be an event id (a non-negative integer)")
        }
        return id
    }

    private static func eventId(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return Int64(text)
    }

    private static func value(_ name: String, _ request: HTTPRequest) -> String? {
        request.queryValue(name).flatMap { $0.isEmpty ? nil : $0 }
    }
}
