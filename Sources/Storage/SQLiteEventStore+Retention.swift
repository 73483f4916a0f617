// What the retention pruned: the check behind a `410` for a page or a resume from before the retained range.
import Foundation

extension SQLiteEventStore {
    /// Where a tenant's or a device's retained events begin, once the retention pruned some of them.
    public struct PrunedRange: Sendable, Equatable {
        /// The greatest id pruned: a page or resume after an id below it would skip events; after it, none.
        public var lastPrunedId: Int64
        /// The oldest event held after ``lastPrunedId``, if any is.
        public var oldestHeldId: Int64?

        public init(lastPrunedId: Int64, oldestHeldId: Int64?) {
            self.lastPrunedId = lastPrunedId
            self.oldestHeldId = oldestHeldId
        }
    }

    /// The pruned range of a device (when `deviceId` is given) or of the whole tenant, or nil when the retention
    /// pruned none of its events. Two index lookups: the watermark (the device's in `event_watermarks`, the
    /// tenant's, the greatest of its devices', in `tenant_event_watermarks`, both by their primary key), then the
    /// first event after it.
    ///
    /// A tenant-wide reader (filtered by app, type or nothing) resumes after the tenant's watermark: before it, a
    /// device's events are gone, even if another device's older ones are still held.
    public func prunedRange(tenantId: String, deviceId: String?) throws -> PrunedRange? {
        try StoreFailure.mapping {
            try database.read { db -> PrunedRange? in
                try db.transaction(.deferred) {  // one snapshot for both lookups
                    let watermark: Int64?
                    if let deviceId {
                        watermark = try db.scalar(Self.deviceWatermark, [tenantId, deviceId], as: Int64.self)
                    } else {
                        watermark = try db.scalar(Self.tenantWatermark, [tenantId], as: Int64.self)
                    }
                    guard let watermark, watermark > 0 else { return nil }
                    let oldest: Int64?
                    if let deviceId {
                        oldest = try Self.optional(
                            "SELECT min(id) FROM events WHERE tenant_id = ? AND device_id = ? AND id > ?",
                            [tenantId, deviceId, watermark], db)
                    } else {
                        oldest = try Self.optional(
                            "SELECT min(id) FROM events WHERE tenant_id = ? AND id > ?", [tenantId, watermark], db)
                    }
                    return PrunedRange(lastPrunedId: watermark, oldestHeldId: oldest)
                }
            }
        }
    }

    /// The watermark of a device, by the primary key of `event_watermarks`.
    static let deviceWatermark = "SELECT pruned_through FROM event_watermarks WHERE tenant_id = ? AND device_id = ?"
    /// The watermark of a tenant, by the primary key of `tenant_event_watermarks`.
    static let tenantWatermark = "SELECT pruned_through FROM tenant_event_watermarks WHERE tenant_id = ?"

    /// The integer an aggregate answers, nil for its NULL (no row).
    private static func optional(_ sql: String, _ arguments: SQLiteArguments, _ db: SQLiteConnection) throws -> Int64? {
        try db.queryFirst(sql, arguments) { row in row.isNull(0) ? nil : try row.get(0, as: Int64.self) } ?? nil
    }
}
