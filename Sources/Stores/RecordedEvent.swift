import Emulation
import Foundation

/// An event as stored: its service-wide id (strictly increasing, the SSE id), owner and wall time.
public struct RecordedEvent: Sendable, Equatable {
    public var id: Int64
    public var tenantId: String
    public var deviceId: String
    public var event: EmulationEvent
    /// Wall-clock time of recording.
    public var recordedAt: Date

    public init(id: Int64, tenantId: String, deviceId: String, event: EmulationEvent, recordedAt: Date) {
        self.id = id
        self.tenantId = tenantId
        self.deviceId = deviceId
        self.event = event
        self.recordedAt = recordedAt
    }
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
