import Emulation
import HTTPServer
import Stores

/// The query of an event route: its filters and where to start.
struct EventQuery {
    var filter: EventFilter

    /// `deviceId`, `bundleId`, `type` (a prefix such as `run.`) and `runId`; an empty value filters nothing. On a
    /// device's own route the device comes from the path, and a `deviceId` parameter naming another one is refused.
    /// A run id names a run on one device only, so `runId` needs the device.
    init(_ request: HTTPRequest, pathDeviceId: String?) throws {
        let deviceId = Self.value("deviceId", request)
        if let pathDeviceId, let deviceId, deviceId != pathDeviceId {
            throw Problems.invalid("deviceId", "must be the device of the path, or left out")
        }
        let runId = Self.value("runId", request)
        if runId != nil, pathDeviceId ?? deviceId == nil {
            throw Problems.invalid("runId", "needs deviceId: run ids are unique on their device only")
        }
        filter = EventFilter(
            deviceId: pathDeviceId ?? deviceId, bundleId: Self.value("bundleId", request),
            typePrefix: Self.value("type", request), runId: runId)
    }

    /// Where a stream resumes: the `Last-Event-ID` header, or `?lastEventId=` (WHATWG HTML §9.2.4: the id of the
    /// last event the client saw); nil for live events only. The ids this service sends are integers, so anything
    /// else is a `400`.
    static func lastEventId(_ request: HTTPRequest) throws -> Int64? {
        // The header wins over the query (an `EventSource` reconnecting sends it), but a query that is no event id
        // is refused all the same: a parameter the contract constrains is never silently ignored.
        if let query = request.queryValue("lastEventId"), !query.isEmpty, eventId(query) == nil {
            throw Problems.malformed("lastEventId must be the id of an event: a non-negative integer, not \"\(query)\".")
        }
        guard let text = LastEventID.from(request) else { return nil }
        guard let id = eventId(text) else {
            throw Problems.malformed("Last-Event-ID must be the id of an event: a non-negative integer, not \"\(text)\".")
        }
        return id
    }

    /// The order of a page: `?order=asc` (the default, oldest first) or `desc` (newest first).
    enum Order: String {
        case ascending = "asc"
        case descending = "desc"
    }

    /// The ids a page may hold: greater than `afterId`, and less than `beforeId` when there is one.
    struct PageRange: Equatable {
        var order: Order
        var afterId: Int64
        var beforeId: Int64?
        /// Whether the page continues from an id the client names (`after`, or an oldest-first cursor), so that
        /// events pruned after it would be a silent gap (a `410`). A first page without either lists what is held.
        var continuesFromClient = false
    }

    /// Where a page starts and which way it goes. `?after=` is an exclusive lower bound in both orders. Oldest
    /// first, the page cursor (the last id of the previous page) is one too, and the page starts after the
    /// greater of the two, so a client may keep `after` in its URL and add the cursor. Newest first, the
    /// cursor (the last, oldest id of the previous page) is an exclusive upper bound, and the first page
    /// starts at the newest event.
    static func pageRange(_ request: HTTPRequest, cursor: String?) throws -> PageRange {
        let order: Order
        // Not `value`: an empty `order=` is not left out but a value outside the enum (the contract's).
        switch request.queryValue("order") {
        case nil: order = .ascending
        case let text?:
            guard let known = Order(rawValue: text) else { throw Problems.invalid("order", "must be asc or desc") }
            order = known
        }
        let after = try value("after", request).map { text in
            guard let id = eventId(text) else { throw Problems.invalid("after", "must be an event id (a non-negative integer)") }
            return id
        }
        let cursorId = try cursor.map { text in
            guard let id = eventId(text) else { throw Problems.invalid("cursor", "must be an event id (a non-negative integer)") }
            return id
        }
        switch order {
        case .ascending:
            return PageRange(
                order: order, afterId: max(after ?? 0, cursorId ?? 0), beforeId: nil,
                continuesFromClient: after != nil || cursorId != nil)
        case .descending:
            // Newest first, a cursor goes back in time and ends at the oldest held event: only `after` can be missed.
            return PageRange(order: order, afterId: after ?? 0, beforeId: cursorId, continuesFromClient: after != nil)
        }
    }

    /// At most 18 ASCII digits (the contract's pattern): every id fits, and no overflow needs handling.
    private static func eventId(_ text: String) -> Int64? {
        guard (1...18).contains(text.utf8.count),
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else {
            return nil
        }
        return Int64(text)
    }

    private static func value(_ name: String, _ request: HTTPRequest) -> String? {
        request.queryValue(name).flatMap { $0.isEmpty ? nil : $0 }
    }
}
