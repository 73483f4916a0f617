/// Which of a device's events to read (the `type` prefix and `bundleId` filters of `GET …/events`).
public struct EventFilter: Sendable, Equatable {
    public var typePrefix: String?
    public var bundleId: String?

    public init(typePrefix: String? = nil, bundleId: String? = nil) {
        self.typePrefix = typePrefix
        self.bundleId = bundleId
    }

    var query: [(String, String)] {
        var query: [(String, String)] = []
        if let typePrefix { query.append(("type", typePrefix)) }
        if let bundleId { query.append(("bundleId", bundleId)) }
        return query
    }
}

extension APIClient {
    /// `GET …/events`: the device's events after the event `after`, oldest first, every page.
    public func events(_ device: String, after: Int64? = nil, filter: EventFilter = EventFilter()) throws -> [JSONValue] {
        try allItems(Self.devicePath(device, "events"), query: filter.query + (after.map { [("after", String($0))] } ?? []))
    }

    /// The id of the device's newest event that passes `filter` (0 when there is none).
    public func newestEventId(_ device: String, filter: EventFilter = EventFilter()) throws(ClientFailure) -> Int64 {
        let page = try json("GET", Self.devicePath(device, "events"), query: filter.query + [("order", "desc"), ("limit", "1")])
        return page["items"]?.arrayValue?.first?["id"]?.exactNumber?.int64Value ?? 0
    }

    /// Follows the device's events live from after `after` (``followEvents(_:query:after:deadAfter:reconnectWhenUnreachable:shouldStop:onInterruption:onEvent:)``),
    /// each event's `data` as JSON.
    public func followEvents(
        _ device: String, after: Int64, filter: EventFilter = EventFilter(), reconnectWhenUnreachable: Bool,
        shouldStop: () -> Bool = { false }, onInterruption: (EventStreamInterruption) -> Void = { _ in },
        onEvent: (JSONValue, ServerSentEventParser.Event) throws -> Void
    ) throws {
        try followEvents(
            Self.devicePath(device, "events"), query: filter.query, after: String(after),
            reconnectWhenUnreachable: reconnectWhenUnreachable, shouldStop: shouldStop, onInterruption: onInterruption
        ) { message in
            guard let data = try? JSONValue.parse(Array(message.data.utf8)) else { return }
            try onEvent(data, message)
        }
    }
}
