import Foundation
import Testing
@testable import Storage

extension EventCountsTests {
    /// Migration 008 on a database the 007 schema wrote, with counts and watermarks: the counts, the watermarks
    /// and every `410` range are what they were.
    @Test func migration008CarriesTheCountsAndWatermarksOverExactly() throws {
        try withTemporaryPath { path throws in
            var upTo007 = DatabaseMigrator()
            for migration in DatabaseMigrator.bgemu.migrations.prefix(7) {
                upTo007.registerMigration(migration.name, migration.body)
            }
            #expect(upTo007.names.last == "007_forecasts")
            // The ranges the 007 build answered: its watermark queries, then the first event after.
            let oldRange = { (db: SQLiteConnection, tenant: String, device: String?) throws -> [Int64?] in
                let optional = { (sql: String, arguments: SQLiteArguments) throws -> Int64? in
                    try db.queryFirst(sql, arguments) { $0.isNull(0) ? nil : try $0.get(0, as: Int64.self) } ?? nil
                }
                let watermark: Int64?
                let oldest: Int64?
                if let device {
                    watermark = try optional(
                        "SELECT pruned_through FROM event_retention WHERE tenant_id = ? AND device_id = ?", [tenant, device])
                    guard let watermark, watermark > 0 else { return [] }
                    oldest = try optional(
                        "SELECT min(id) FROM events WHERE tenant_id = ? AND device_id = ? AND id > ?", [tenant, device, watermark])
                } else {
                    watermark = try optional("SELECT max(pruned_through) FROM event_retention WHERE tenant_id = ?", [tenant])
                    guard let watermark, watermark > 0 else { return [] }
                    oldest = try optional("SELECT min(id) FROM events WHERE tenant_id = ? AND id > ?", [tenant, watermark])
                }
                return [watermark, oldest]
            }
            let asked: [(tenant: String, device: String?)] = [
                ("ten_1", "dev_a"), ("ten_1", "dev_b"), ("ten_1", nil), ("ten_2", "dev_c"), ("ten_2", nil), ("ten_2", "dev_x"),
            ]
            let before: [[Int64?]]
            do {
                let database = try openDatabase(path: path, migrator: upTo007)
                defer { database.close() }
                let tenants = SQLiteTenantStore(database: database)
                for n in 1...2 {
                    let (tenant, key) = makeTenant(n)
                    try tenants.createTenant(tenant, firstKey: key)
                }
                before = try database.write { db in
                    // Ids 1–6 dev_a, 7–8 dev_b (ten_1), 9–10 dev_c (ten_2), then pruned as the 007 build did:
                    // dev_a through 3, dev_c through 9.
                    for (n, key) in (Array(repeating: ("ten_1", "dev_a"), count: 6) + [("ten_1", "dev_b"), ("ten_1", "dev_b"),
                        ("ten_2", "dev_c"), ("ten_2", "dev_c")]).enumerated() {
                        try db.execute(
                            """
                            INSERT INTO events (tenant_id, device_id, type, at, recorded_at, data)
                            VALUES (?, ?, 'test.event', ?, '2026-01-01T00:00:00.000Z', '{}')
                            """, [key.0, key.1, Int64(n)])
                    }
                    try db.execute("DELETE FROM events WHERE id IN (1, 2, 3, 9)", [])
                    try db.execute(
                        """
                        INSERT INTO event_retention (tenant_id, device_id, held, pruned_through) VALUES
                            ('ten_1', 'dev_a', 3, 3), ('ten_1', 'dev_b', 2, 0), ('ten_2', 'dev_c', 1, 9)
                        """, [])
                    return try asked.map { try oldRange(db, $0.tenant, $0.device) }
                }
            }
            #expect(before == [[3, 4], [], [3, 4], [9, 10], [9, 10], []])

            let database = try openDatabase(path: path)
            defer { database.close() }
            let store = SQLiteEventStore(database: database)
            let after = try asked.map { ask in
                try store.prunedRange(tenantId: ask.tenant, deviceId: ask.device).map { [$0.lastPrunedId, $0.oldestHeldId] } ?? []
            }
            #expect(after == before)
            let s = Stores(database: database, devices: SQLiteDeviceStore(database: database), events: store)
            #expect(try s.counts() == ["ten_1/dev_a 3", "ten_1/dev_b 2", "ten_2/dev_c 1"])
            #expect(try s.counts() == s.logCounts())
            #expect(try s.validity() == "valid")
            let watermarks = try database.read { db in
                try db.query("SELECT tenant_id, device_id, pruned_through FROM event_watermarks ORDER BY 1, 2") {
                    "\(try $0.get(0, as: String.self))/\(try $0.get(1, as: String.self)) \(try $0.get(2, as: Int64.self))"
                } + db.query("SELECT tenant_id, pruned_through FROM tenant_event_watermarks ORDER BY 1") {
                    "\(try $0.get(0, as: String.self)) \(try $0.get(1, as: Int64.self))"
                }
            }
            #expect(watermarks == ["ten_1/dev_a 3", "ten_2/dev_c 9", "ten_1 3", "ten_2 9"])
            let gone = try database.read { db in
                try db.scalar("SELECT count(*) FROM sqlite_master WHERE name LIKE 'event_retention%'", as: Int.self)
            }
            #expect(gone == 0)

            // Valid counts: no recount at startup, and a prune by count goes by them.
            #expect(try EventCounts.prepare(database, counting: true) == false)
            let report = try EventPruner(database: database, retention: EventRetention(maximumPerDevice: 1), minimumPause: .zero).prune()
            #expect(report.events == 2 + 1)
            #expect(try store.prunedRange(tenantId: "ten_1", deviceId: "dev_a") == .init(lastPrunedId: 5, oldestHeldId: 6))
            #expect(try store.prunedRange(tenantId: "ten_1", deviceId: "dev_b") == .init(lastPrunedId: 7, oldestHeldId: 8))
            #expect(try store.prunedRange(tenantId: "ten_1", deviceId: nil) == .init(lastPrunedId: 7, oldestHeldId: 8))
        }
    }
}
