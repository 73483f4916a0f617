import Emulation
import HTTPServer
import Stores

/// An event id read on a shard the tenant (second argument) was moved from, as it is on this one.
typealias EventIdAfterMoves = @Sendable (_ id: Int64, _ tenantId: String) throws -> Int64

/// `GET /v1/events` and `GET /v1/devices/{deviceId}/events`: the caller's tenant's events, as a live stream
/// (`Accept: text/event-stream`) or as JSON pages.
enum EventRoutes {
    /// - Parameter deviceExists: whether the tenant (first argument) has the device (second); the device's own
    ///   route answers `404` otherwise, even though the events of a deleted device stay in the log.
    /// - Parameter prunedEvents: what the event retention pruned: a page or a resume from before it is a `410`
    ///   (``Problems/eventsPruned(_:afterId:deviceId:)``); nil when nothing is ever pruned.
    /// - Parameter eventIdAfterMoves: an event id a client of the tenant (second argument) read on a shard the tenant
    ///   was moved from, as it is on this one (`Last-Event-ID`, `after` and cursors go through it); nil: no moves.
    /// - Parameter refused: told of each stream refused by a stream limit (metrics).
    static func register(
        on routes: inout RouteGroup, hub: EventHub, store: any EventStore, prunedEvents: PrunedEventsLookup? = nil,
        eventIdAfterMoves: EventIdAfterMoves? = nil,
        refused: @escaping @Sendable (PrometheusMetrics.StreamRefusal) -> Void = { _ in },
        deviceExists: @escaping @Sendable (_ tenantId: String, _ deviceId: String) throws -> Bool
    ) {
        routes.get("/events") { request, context in
            try respond(
                to: request, tenantId: try context.tenant().id, keyId: context[AuthenticatedTenant.self]?.keyId, deviceId: nil,
                hub: hub, store: store,
                prunedEvents: prunedEvents, eventIdAfterMoves: eventIdAfterMoves, refused: refused)
        }

        routes.get("/devices/{deviceId}/events") { request, context in
            let tenantId = try context.tenant().id
            let deviceId = try context.parameters.require("deviceId")
            guard try deviceExists(tenantId, deviceId) else { throw Problems.notFound("device", deviceId) }
            return try respond(
                to: request, tenantId: tenantId, keyId: context[AuthenticatedTenant.self]?.keyId, deviceId: deviceId, hub: hub,
                store: store, prunedEvents: prunedEvents,
                eventIdAfterMoves: eventIdAfterMoves, refused: refused)
        }
    }

    private static func respond(
        to request: HTTPRequest, tenantId: String, keyId: String?, deviceId: String?, hub: EventHub, store: any EventStore,
        prunedEvents: PrunedEventsLookup?, eventIdAfterMoves: EventIdAfterMoves?,
        refused: @Sendable (PrometheusMetrics.StreamRefusal) -> Void
    ) throws -> HTTPResponse {
        let query = try EventQuery(request, pathDeviceId: deviceId)
        // Checked whatever the answer: a malformed Last-Event-ID is a 400 on a page request too.
        // An id read on a shard the tenant was moved from names the same place in the log here (`EventIdMoves`).
        let moved = { (id: Int64) throws -> Int64 in try eventIdAfterMoves?(id, tenantId) ?? id }
        let lastEventId = try EventQuery.lastEventId(request).map(moved)
        /// A `410` when the retention pruned events of the tenant (or of the filter's device) after `afterId`.
        func checkNothingPruned(after afterId: Int64) throws {
            guard let lookup = prunedEvents, let pruned = try lookup(tenantId, query.filter.deviceId),
                pruned.lastPrunedId > afterId
            else { return }
            throw Problems.eventsPruned(pruned, afterId: afterId, deviceId: query.filter.deviceId)
        }
        if AcceptNegotiation.prefersEventStream(request) {
            // Before the stream starts: a resume from before the retained range would skip events without a word.
            if let lastEventId { try checkNothingPruned(after: lastEventId) }
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
        if eventIdAfterMoves != nil {
            // The lower bound is exclusive: after `x` is after its image. The upper one too: before `x` is up to
            // and with the image of `x - 1`.
            if range.continuesFromClient { range.afterId = try moved(range.afterId) }
            if let before = range.beforeId { range.beforeId = try moved(max(0, before - 1)) + 1 }
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
        if range.continuesFromClient { try checkNothingPruned(after: range.afterId) }
        let items = events.prefix(paging.limit)
        let next = events.count > paging.limit ? items.last.map { String($0.id) } : nil
        return try JSONBody.response(PageBody(items: items.map(EventBody.init), nextCursor: next))
    }
}
