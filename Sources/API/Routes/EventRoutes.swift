import Emulation
import HTTPServer
import Stores

/// How the event ids a tenant's clients know (an event keeps its id across moves between shards) and this shard's
/// log's own map onto each other (`EventIdMoves` in Storage).
struct MovedEventIds: Sendable {
    /// An id a client of the tenant (second argument) names (`Last-Event-ID`, `after`, a cursor), as it is in this
    /// shard's log.
    var here: @Sendable (_ id: Int64, _ tenantId: String) throws -> Int64
    /// An id of this shard's log as the tenant's clients know it (for the ids of events gone, which a `410` names).
    var original: @Sendable (_ id: Int64, _ tenantId: String) throws -> Int64
}

/// `GET /v1/events` and `GET /v1/devices/{deviceId}/events`: the caller's tenant's events, as a live stream
/// (`Accept: text/event-stream`) or as JSON pages.
enum EventRoutes {
    /// - Parameter deviceExists: whether the tenant (first argument) has the device (second); the device's own
    ///   route answers `404` otherwise, even though the events of a deleted device stay in the log.
    /// - Parameter prunedEvents: what the event retention pruned: a page or a resume from before it is a `410`
    ///   (``Problems/eventsPruned(_:afterId:deviceId:)``); nil when nothing is ever pruned.
    /// - Parameter movedIds: the ids a tenant's clients know, as they are in this shard's log and back
    ///   (`Last-Event-ID`, `after` and cursors go through it, a `410` names its ids through it); nil: no moves.
    /// - Parameter refused: told of each stream refused by a stream limit (metrics).
    static func register(
        on routes: inout RouteGroup, hub: EventHub, store: any EventStore, prunedEvents: PrunedEventsLookup? = nil,
        movedIds: MovedEventIds? = nil,
        refused: @escaping @Sendable (PrometheusMetrics.StreamRefusal) -> Void = { _ in },
        deviceExists: @escaping @Sendable (_ tenantId: String, _ deviceId: String) throws -> Bool
    ) {
        routes.get("/events") { request, context in
            try respond(
                to: request, tenantId: try context.tenant().id, keyId: context[AuthenticatedTenant.self]?.keyId, deviceId: nil,
                hub: hub, store: store,
                prunedEvents: prunedEvents, movedIds: movedIds, refused: refused)
        }

        routes.get("/devices/{deviceId}/events") { request, context in
            let tenantId = try context.tenant().id
            let deviceId = try context.parameters.require("deviceId")
            guard try deviceExists(tenantId, deviceId) else { throw Problems.notFound("device", deviceId) }
            return try respond(
                to: request, tenantId: tenantId, keyId: context[AuthenticatedTenant.self]?.keyId, deviceId: deviceId, hub: hub,
                store: store, prunedEvents: prunedEvents,
                movedIds: movedIds, refused: refused)
        }
    }

    private static func respond(
        to request: HTTPRequest, tenantId: String, keyId: String?, deviceId: String?, hub: EventHub, store: any EventStore,
        prunedEvents: PrunedEventsLookup?, movedIds: MovedEventIds?,
        refused: @Sendable (PrometheusMetrics.StreamRefusal) -> Void
    ) throws -> HTTPResponse {
        let query = try EventQuery(request, pathDeviceId: deviceId)
        // Checked whatever the answer: a malformed Last-Event-ID is a 400 on a page request too.
        // An id a client holds names its place in the log here, wherever the tenant was when it read it
        // (`EventIdMoves`).
        let here = { (id: Int64) throws -> Int64 in try movedIds?.here(id, tenantId) ?? id }
        let clientLastEventId = try EventQuery.lastEventId(request)
        let lastEventId = try clientLastEventId.map(here)
        /// A `410` when the retention pruned events of the tenant (or of the filter's device) after `afterId`, which
        /// the client named `clientAfterId`; its ids are those the client knows.
        func checkNothingPruned(after afterId: Int64, clientAfterId: Int64) throws {
            guard let lookup = prunedEvents, var pruned = try lookup(tenantId, query.filter.deviceId),
                pruned.lastPrunedId > afterId
            else { return }
            if let movedIds {
                pruned.lastPrunedId = try movedIds.original(pruned.lastPrunedId, tenantId)
                pruned.oldestHeldId = try pruned.oldestHeldId.map { try movedIds.original($0, tenantId) }
            }
            throw Problems.eventsPruned(pruned, afterId: clientAfterId, deviceId: query.filter.deviceId)
        }
        if AcceptNegotiation.prefersEventStream(request) {
            // Before the stream starts: a resume from before the retained range would skip events without a word.
            if let lastEventId, let clientLastEventId {
                try checkNothingPruned(after: lastEventId, clientAfterId: clientLastEventId)
            }
            switch hub.reserveStream(tenantId: tenantId) {
            case .reserved(let slot):
                return hub.stream(
                    tenantId: tenantId, keyId: keyId, filter: query.filter, lastEventId: lastEventId, slot: slot)
            case .instanceFull:
                refused(.tooManyStreams)
                throw HTTPProblem(
                    status: .serviceUnavailable, code: "tooManyStreams",
                    detail: "This instance holds \(hub.maximumStreams) event streams already; retry later.",
                    headers: ["Retry-After": "5"])
            case .tenantFull:
                refused(.tooManyStreamsForTenant)
                throw HTTPProblem(
                    status: .tooManyRequests, code: "tooManyStreamsForTenant",
                    detail: "Your tenant holds \(hub.maximumStreamsPerTenant) event streams already, its share of this "
                        + "instance; close one (or filter one stream by device) and retry.",
                    headers: ["Retry-After": "5"])
            }
        }
        // A page, oldest or newest first; one more event is read to know whether there is a next page.
        let paging = try Pagination(request)
        var range = try EventQuery.pageRange(request, cursor: paging.cursor)
        let clientAfterId = range.afterId
        if movedIds != nil {
            // The lower bound is exclusive: after `x` is after its image. The upper one too: before `x` is up to
            // and with the image of `x - 1`.
            if range.continuesFromClient { range.afterId = try here(range.afterId) }
            if let before = range.beforeId { range.beforeId = try here(max(0, before - 1)) + 1 }
        }
        let events: [RecordedEvent]
        switch range.order {
        case .ascending:
            events = try store.events(
                tenantId: tenantId, filter: query.filter, afterId: range.afterId, limit: paging.limit + 1)
        case .descending:
            events = try store.eventsNewestFirst(
                tenantId: tenantId, filter: query.filter, afterId: range.afterId, beforeId: range.beforeId,
                limit: paging.limit + 1)
        }
        // After the read: the watermark only rises, so if it is not above `after` now, the page missed nothing.
        if range.continuesFromClient { try checkNothingPruned(after: range.afterId, clientAfterId: clientAfterId) }
        let items = events.prefix(paging.limit)
        // The cursor is the last event's id as the client knows it, as `after` would be.
        let next = events.count > paging.limit ? items.last.map { String($0.publicId) } : nil
        return try JSONBody.response(PageBody(items: items.map(EventBody.init), nextCursor: next))
    }
}
