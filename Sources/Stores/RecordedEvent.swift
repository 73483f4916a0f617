import Emulation
import Foundation

/// An event as stored: its service-wide id (strictly increasing), the id its tenant's clients know it by (the SSE
/// id), owner and wall time.
public struct RecordedEvent: Sendable, Equatable {
    /// Its place in this shard's log: strictly increasing service-wide in commit order.
    public var id: Int64
    /// The id the event had on the shard it was first recorded on, when a move of its tenant brought it here (the
    /// import renumbers the log, see `EventIdMoves` in Storage); nil for an event recorded here.
    public var originalId: Int64?
    public var tenantId: String
    public var deviceId: String
    public var event: EmulationEvent
    /// Wall-clock time of recording.
    public var recordedAt: Date

    public init(
        id: Int64, tenantId: String, deviceId: String, event: EmulationEvent, recordedAt: Date, originalId: Int64? = nil
    ) {
        self.id = id
        self.originalId = originalId
        self.tenantId = tenantId
        self.deviceId = deviceId
        self.event = event
        self.recordedAt = recordedAt
    }

    /// The id the tenant's clients know the event by, whichever shard answers: its SSE id, its `id` in a page, the
    /// page cursor after it. A client names it back (`Last-Event-ID`, `after`, a cursor) and the shard finds its
    /// place in the log from it.
    public var publicId: Int64 { originalId ?? id }
}

/// Which events a reader wants: all of a tenant's, or narrowed by device, app, type prefix and run.
public struct EventFilter: Sendable, Equatable {
    public var deviceId: String?
    public var bundleId: String?
    /// A prefix of the type: `run.` matches `run.started`, `run.completed`, …
    public var typePrefix: String?
    /// The run the event's data names (`data.runId`); run ids are unique on their device only.
    public var runId: String?

    public init(deviceId: String? = nil, bundleId: String? = nil, typePrefix: String? = nil, runId: String? = nil) {
        self.deviceId = deviceId
        self.bundleId = bundleId
        self.typePrefix = typePrefix
        self.runId = runId
    }

    /// Whether a recorded event of `tenantId` passes (the tenant check is the caller's: it is never optional).
    public func matches(_ recorded: RecordedEvent) -> Bool {
        if let deviceId, recorded.deviceId != deviceId { return false }
        if let bundleId, recorded.event.bundleId != bundleId { return false }
        if let typePrefix, !recorded.event.type.rawValue.hasPrefix(typePrefix) { return false }
        if let runId, recorded.event.data["runId"] != .string(runId) { return false }
        return true
    }
}

/// The append-only event log.
public protocol EventStore: Sendable {
    /// The tenant's events with id greater than `afterId`, oldest first, at most `limit`.
    func events(tenantId: String, filter: EventFilter, afterId: Int64, limit: Int) throws -> [RecordedEvent]
    /// The tenant's events with id greater than `afterId` and less than `beforeId` (no upper bound when nil),
    /// newest first, at most `limit`: paging backwards from the newest event.
    func eventsNewestFirst(
        tenantId: String, filter: EventFilter, afterId: Int64, beforeId: Int64?, limit: Int
    ) throws -> [RecordedEvent]
    /// The greatest event id recorded so far (0 when there is none).
    func latestEventId() throws -> Int64
}
