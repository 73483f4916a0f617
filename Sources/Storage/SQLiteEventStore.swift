// Reading the event log.
import Emulation
import Foundation
import Stores

/// ``EventStore`` on a ``Database``: reads the `events` table that ``SQLiteDeviceStore`` appends to.
///
/// Every read names its tenant; a filter narrows it by device (index `events_by_device`), app, type prefix and run
/// (`data.runId`, with its device: index `events_by_run`).
/// The prefix is compared in SQL with `substr(type, 1, length(prefix)) = prefix`, so `%`, `_` and `*` in it are
/// plain characters (no `LIKE` or `GLOB` pattern). SQLite counts characters as Unicode scalars where Swift's
/// `hasPrefix` (in `EventFilter.matches`) compares grapheme clusters; the two agree on the dotted ASCII types.
public struct SQLiteEventStore: EventStore {
    public let database: Database

    public init(database: Database) {
        self.database = database
    }

    public func events(tenantId: String, filter: EventFilter, afterId: Int64, limit: Int) throws -> [RecordedEvent] {
        try read(tenantId: tenantId, filter: filter, afterId: afterId, beforeId: nil, newestFirst: false, limit: limit)
    }

    public func eventsNewestFirst(
        tenantId: String, filter: EventFilter, afterId: Int64, beforeId: Int64?, limit: Int
    ) throws -> [RecordedEvent] {
        try read(tenantId: tenantId, filter: filter, afterId: afterId, beforeId: beforeId, newestFirst: true, limit: limit)
    }

    /// Both directions walk an index whose last column is `id` (`events_by_device` when a device is named,
    /// else `events_by_tenant`), forwards or backwards, and stop after `limit` rows: no sort, whatever the
    /// size of the log (`EXPLAIN QUERY PLAN` shows no `TEMP B-TREE`; see the store's tests).
    private func read(
        tenantId: String, filter: EventFilter, afterId: Int64, beforeId: Int64?, newestFirst: Bool, limit: Int
    ) throws -> [RecordedEvent] {
        let (sql, arguments) = Self.query(
            tenantId: tenantId, filter: filter, afterId: afterId, beforeId: beforeId, newestFirst: newestFirst,
            limit: limit)
        let rows = try StoreFailure.mapping {
            try database.read { db in try db.query(sql, arguments, EventRows.raw) }
        }
        // Parsed outside the read, so the reader goes back to the pool sooner.
        return try rows.map(EventRows.decode)
    }

    /// The SQL of a read and its arguments: at most 64 distinct texts (filters × upper bound × direction),
    /// each cached by the connection.
    static func query(
        tenantId: String, filter: EventFilter, afterId: Int64, beforeId: Int64?, newestFirst: Bool, limit: Int
    ) -> (sql: String, arguments: SQLiteArguments) {
        var sql = "SELECT \(EventRows.columns) FROM events WHERE tenant_id = ?"
        var arguments: SQLiteArguments = [tenantId]
        if let deviceId = filter.deviceId {
            sql += " AND device_id = ?"
            arguments.append(deviceId)
        }
        if let bundleId = filter.bundleId {
            sql += " AND bundle_id = ?"
            arguments.append(bundleId)
        }
        if let prefix = filter.typePrefix, !prefix.isEmpty {
            sql += " AND substr(type, 1, length(?)) = ?"
            arguments += [prefix, prefix]
        }
        if let runId = filter.runId {
            // The expression of the partial index `events_by_run`, spelled the same so that SQLite uses it.
            sql += " AND json_extract(data, '$.runId') = ?"
            arguments.append(runId)
        }
        sql += " AND id > ?"
        arguments.append(afterId)
        if let beforeId {
            sql += " AND id < ?"
            arguments.append(beforeId)
        }
        sql += newestFirst ? " ORDER BY id DESC LIMIT ?" : " ORDER BY id LIMIT ?"
        arguments.append(PageCursor.pageSize(limit))
        return (sql, arguments)
    }

    /// The greatest id `AUTOINCREMENT` has handed out, even if that event is gone since (its tenant deleted).
    public func latestEventId() throws -> Int64 {
        try StoreFailure.mapping {
            try database.read { db in
                try db.scalar("SELECT seq FROM sqlite_sequence WHERE name = 'events'", as: Int64.self) ?? 0
            }
        }
    }
}
