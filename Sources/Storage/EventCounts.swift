// How many events of each device the log holds: kept only while a per-device retention limit needs it.
import Foundation

/// The per-device counts of `event_counts` (migration `008_event_counts`), which the retention by count reads to
/// find the devices over its limit. Keeping them costs every append a write to a B-tree of its own, so the appends
/// keep them only while **counting** is on: with a per-device limit in force (``prepare(_:counting:)``, called by
/// the service at startup and by the ``EventPruner`` at the start of a pass with a per-device limit).
///
/// Counting is a state of the database, held in two places that agree:
/// - the `settings` row `event_counts` = `stale`, there only once the appends stopped counting; without it every
///   append counts and the counts equal the log's (a new database, or one migration 008 carried the counts to).
/// - the writer connection's `countsEvents` flag, which every append reads (appends run holding the writer, so the
///   read is race-free); nil until first needed, then read from the setting.
///
/// Both change only in ``prepare(_:counting:)``, with the writer held throughout, so no append falls between the
/// setting and the flag. One process writes the database: another process switching counting on the same file is
/// not seen by this one's flag.
public enum EventCounts {
    /// The `settings` row that says the counts are not kept (its value is `stale`).
    static let settingName = "event_counts"

    /// Turns counting on or off, once the database is migrated and before anything appends concurrently (it takes
    /// the writer, so an append in progress finishes first). Off marks the counts stale: the appends stop keeping
    /// them. On when they are stale counts every device's events again (a scan of the log, in one transaction), then
    /// the appends keep them; on when they are valid already, or off when stale, does nothing. Answers whether it
    /// counted the log again.
    ///
    /// Runs in a transaction of its own: not inside a write.
    @discardableResult
    public static func prepare(_ database: Database, counting: Bool) throws -> Bool {
        try StoreFailure.mapping {
            try database.writeWithoutTransaction { db in
                precondition(!db.isInTransaction, "counting is switched in a transaction of its own")
                guard try isCounting(db) != counting else { return false }
                // A recount sorts a key of every event of the log: on a large log more than is worth holding in
                // memory, where `openDatabase` keeps the writer's temporary files. Spilled to a file, as the
                // migrations' sorts are, then set back.
                let tempStore = try db.scalar("PRAGMA temp_store", as: Int.self) ?? 0
                if counting { try db.execute("PRAGMA temp_store=FILE") }
                defer { if counting { try? db.execute("PRAGMA temp_store=\(tempStore)") } }
                let recounted: Bool
                do {
                    recounted = try db.transaction(.immediate) { () -> Bool in
                        guard counting else {
                            try db.execute(
                                """
                                INSERT INTO settings (name, value) VALUES (?, 'stale')
                                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                                """, [settingName])
                            return false
                        }
                        try db.execute("DELETE FROM settings WHERE name = ?", [settingName])
                        try db.execute("DELETE FROM event_counts", [])
                        try db.execute(
                            """
                            INSERT INTO event_counts (tenant_id, device_id, held)
                                SELECT tenant_id, device_id, count(*) FROM events GROUP BY 1, 2
                            """, [])
                        return true
                    }
                } catch {
                    db.countsEvents = nil  // not known: read again from what was committed
                    throw error
                }
                db.countsEvents = counting
                return recounted
            }
        }
    }

    /// Whether the appends on `db` (the writer, held by the caller) count events.
    static func isCounting(_ db: SQLiteConnection) throws -> Bool {
        if let counting = db.countsEvents { return counting }
        let counting = try db.scalar("SELECT value FROM settings WHERE name = ?", [settingName], as: String.self) == nil
        db.countsEvents = counting
        return counting
    }

    /// Adds `count` appended events to the device's count, in the appending transaction. Only while counting.
    static func add(_ count: Int64, tenantId: String, deviceId: String, _ db: SQLiteConnection) throws {
        try db.execute(Statement.add, [tenantId, deviceId, count])
    }

    /// Takes `count` pruned events off the device's count, in the deleting transaction. Only while counting.
    static func subtract(_ count: Int64, tenantId: String, deviceId: String, _ db: SQLiteConnection) throws {
        try db.execute(Statement.subtract, [tenantId, deviceId, count])
    }

    /// The device's count (0 without a row). Only meaningful while counting.
    static func held(tenantId: String, deviceId: String, _ db: SQLiteConnection) throws -> Int64 {
        try db.scalar(Statement.held, [tenantId, deviceId], as: Int64.self) ?? 0
    }

    /// The statements the retention by count runs, for the tests that check their query plans.
    enum Statement {
        /// Appended events added to a device's count, by the primary key.
        static let add = """
            INSERT INTO event_counts (tenant_id, device_id, held) VALUES (?, ?, ?)
            ON CONFLICT (tenant_id, device_id) DO UPDATE SET held = held + excluded.held
            """
        /// A device's count, by the primary key.
        static let held = "SELECT held FROM event_counts WHERE tenant_id = ? AND device_id = ?"
        /// The devices over a limit, most over first: the one deliberate scan of `event_counts`, run on a reader
        /// once per round of up to ``EventPruner/candidatesPerScan`` devices.
        static let overLimit =
            "SELECT tenant_id, device_id FROM event_counts WHERE held > ? ORDER BY held DESC LIMIT ?"
        /// Pruned events taken off a device's count, by the primary key.
        static let subtract = "UPDATE event_counts SET held = max(0, held - ?3) WHERE tenant_id = ?1 AND device_id = ?2"
        /// A device's count taken from the log again, by the primary key and `events_by_device`.
        static let recountDevice = """
            UPDATE event_counts SET held = (SELECT count(*) FROM events WHERE tenant_id = ?1 AND device_id = ?2)
            WHERE tenant_id = ?1 AND device_id = ?2
            """
    }
}
