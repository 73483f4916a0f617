// A tenant's export from one database and import into another that has tenants and event ids of its own.
import Emulation
import Foundation
@testable import Storage
import Stores
import Testing

@Suite struct TenantMoveStoreTests {
    private func event(_ type: String, at: Int64) -> EmulationEvent {
        EmulationEvent(type: EventType(type), bundleId: nil, at: VirtualInstant(milliseconds: at), data: ["n": .int(at)])
    }

    /// A tenant with two devices and interleaved events (another tenant's between), a watermark, a forecast and
    /// an idempotency record.
    private func populate(_ database: Database, tenant n: Int, events: Int) throws {
        let tenants = SQLiteTenantStore(database: database)
        let (tenant, key) = makeTenant(n)
        try tenants.createTenant(tenant, firstKey: key)
        let devices = SQLiteDeviceStore(database: database)
        let first = makeDevice("dev_\(n)_a", tenantId: tenant.id)
        let second = makeDevice("dev_\(n)_b", tenantId: tenant.id)
        try devices.insert(first)
        try devices.insert(second)
        for index in 0..<events {
            _ = try devices.update(index % 2 == 0 ? first : second, appending: [event("t.\(n)", at: Int64(index))], recordedAt: date(1_000))
        }
        try database.write { db in
            try db.execute(
                "INSERT INTO forecasts (id, tenant_id, state, progress, request, created_at) VALUES (?, ?, 'done', 0.5, '{}', ?)",
                ["fc_\(n)", tenant.id, "2026-01-01T00:00:00.000Z"])
            try db.execute(
                """
                INSERT INTO idempotency (tenant_id, key, method, path, body_sha256, status, headers, body, created_at)
                VALUES (?, 'k1', 'POST', '/v1/devices', 'abc', 201, '[]', X'7B7D', '2026-01-01T00:00:00.000Z')
                """, [tenant.id])
        }
    }

    private func ids(_ database: Database, tenant: String) throws -> [Int64] {
        try database.read { db in try db.query("SELECT id FROM events WHERE tenant_id = ? ORDER BY id", [tenant]) { try $0[0] } }
    }

    @Test func everyTableWithATenantOrDeviceColumnIsMovedOrDeliberatelyLeft() throws {
        try withDatabase { database in
            let owned: Set<String> = try database.read { db in
                let tables: [String] = try db.query(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") { try $0[0] }
                return Set(try tables.filter { table in
                    let columns = try TenantTables.columns(of: table, db)
                    return columns.contains("tenant_id") || columns.contains("device_id")
                })
            }
            let handled = Set(TenantTables.moved.map(\.name)).union(TenantTables.notMoved.keys).subtracting(["tenants"])
            #expect(owned == handled, "a table with tenant_id or device_id must be moved by TenantTables or named in notMoved")
        }
    }

    /// The bound an export is held to before it is built: the estimate from the rows' stored sizes is within a tenth
    /// of the export's JSON as the route writes it (keys sorted), small or large, and nil for no tenant.
    @Test func anExportsEstimatedSizeIsWithinATenthOfItsJSON() throws {
        try withDatabase { database in
            try populate(database, tenant: 1, events: 10)
            try populate(database, tenant: 2, events: 2_000)
            let store = SQLiteTenantMoveStore(database: database)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for tenantId in ["ten_1", "ten_2"] {
                let actual = try encoder.encode(try #require(try store.export(tenantId: tenantId))).count
                let estimate = try #require(try store.exportSize(tenantId: tenantId))
                #expect(Double(estimate) > Double(actual) * 0.9 && Double(estimate) < Double(actual) * 1.1,
                        "\(tenantId): estimated \(estimate) bytes, exported \(actual)")
            }
            #expect(try store.exportSize(tenantId: "ten_none") == nil)
        }
    }

    @Test func anExportImportsIntoADatabaseWithOverlappingIdsAndResumesExactly() throws {
        try withDatabase { source in
            try withDatabase { target in
                try populate(source, tenant: 1, events: 6)
                try populate(source, tenant: 2, events: 3)  // interleaved after tenant 1's: runs
                try populate(source, tenant: 1_1, events: 0)
                _ = try SQLiteDeviceStore(database: source).update(
                    makeDevice("dev_1_a", tenantId: "ten_1"), appending: [event("t.late", at: 99)], recordedAt: date(2_000))
                try source.write { db in
                    try db.execute("INSERT INTO event_watermarks VALUES ('ten_1', 'dev_1_a', 3)")
                    try db.execute("INSERT INTO tenant_event_watermarks VALUES ('ten_1', 3)")
                }
                try populate(target, tenant: 3, events: 20)  // ids 1…20 on the target: the source's collide
                let sourceIds = try ids(source, tenant: "ten_1")
                let store = SQLiteTenantMoveStore(database: source)
                let document = try #require(try store.export(tenantId: "ten_1"))
                // Through JSON, as it travels.
                let bytes = try JSONEncoder().encode(document)
                let decoded = try JSONDecoder().decode(TenantExport.self, from: bytes)
                #expect(decoded == document)

                let imported = try SQLiteTenantMoveStore(database: target).importTenant(decoded)
                let targetIds = try ids(target, tenant: "ten_1")
                #expect(targetIds.count == sourceIds.count)
                #expect(targetIds.first! > max(20, document.sourceLatestEventId))
                #expect(imported.eventIds?.lowerBound == 21)

                // Every row equal but the renumbered ids and list keys.
                let again = try #require(try SQLiteTenantMoveStore(database: target).export(tenantId: "ten_1"))
                for table in document.tables where !["events", "event_watermarks", "tenant_event_watermarks", "event_id_moves"].contains(table.name) {
                    #expect(again.table(table.name) == table, "\(table.name)")
                }
                // An event's row: its place in the target's log is new, the id its clients know it by is kept.
                let columns = try #require(document.table("events")?.columns)
                let shown = { (t: TenantExport.Table?) -> [[TenantExport.Value]]? in
                    t?.rows.map { row in
                        let fields = Dictionary(uniqueKeysWithValues: zip(columns, row))
                        let known = fields["original_id"] == .null ? fields["id"]! : fields["original_id"]!
                        return [known] + zip(columns, row).filter { !["id", "original_id"].contains($0.0) }.map(\.1)
                    }
                }
                #expect(shown(again.table("events")) == shown(document.table("events")))
                let targetEvents = try SQLiteEventStore(database: target).events(tenantId: "ten_1", filter: EventFilter(), afterId: 0, limit: 100)
                #expect(targetEvents.map(\.publicId) == sourceIds)
                #expect(targetEvents.map(\.id) == targetIds)
                for moved in targetEvents {  // the inverse of the map gives each its id back
                    #expect(try SQLiteTenantMoveStore(database: target).originalEventId(moved.id, tenantId: "ten_1") == moved.publicId)
                }
                #expect(try SQLiteTenantStore(database: target).activeKey(hash: makeTenant(1).1.hash) != nil)

                // A resume after any id read on the source gives exactly the events after it, by content.
                let moves = SQLiteTenantMoveStore(database: target)
                let events = SQLiteEventStore(database: target)
                let sourceEvents = SQLiteEventStore(database: source)
                for after in [0] + sourceIds {  // every id a client can hold from the source (at most M)
                    let translated = try moves.eventIdAfterMoves(after, tenantId: "ten_1")
                    let here = try events.events(tenantId: "ten_1", filter: EventFilter(), afterId: translated, limit: 100)
                    let there = try sourceEvents.events(tenantId: "ten_1", filter: EventFilter(), afterId: after, limit: 100)
                    #expect(here.map(\.event) == there.map(\.event), "after \(after)")
                }
                // The watermark is renumbered: a resume from before it is still before it.
                let pruned = try #require(try events.prunedRange(tenantId: "ten_1", deviceId: nil))
                #expect(try moves.eventIdAfterMoves(2, tenantId: "ten_1") < pruned.lastPrunedId)
                #expect(try moves.eventIdAfterMoves(3, tenantId: "ten_1") == pruned.lastPrunedId)
                #expect(try moves.originalEventId(pruned.lastPrunedId, tenantId: "ten_1") == 3)  // what a `410` names
                // New events come after every imported one; the target's own ids pass through unchanged.
                let new = try #require(try SQLiteDeviceStore(database: target).update(
                    makeDevice("dev_1_a", tenantId: "ten_1"), appending: [event("t.new", at: 100)], recordedAt: date(3_000)))
                #expect(new[0].id > imported.eventIds!.upperBound)
                #expect(try moves.eventIdAfterMoves(new[0].id, tenantId: "ten_1") == new[0].id)
                #expect(try moves.originalEventId(new[0].id, tenantId: "ten_1") == new[0].id)
                #expect(new[0].originalId == nil && new[0].publicId > sourceIds.last!)
            }
        }
    }

    @Test func anIdReadTwoMovesAgoResumesThroughBoth() throws {
        try withDatabase { a in
            try withDatabase { b in
                try withDatabase { c in
                    try populate(a, tenant: 1, events: 5)
                    try populate(b, tenant: 2, events: 30)
                    try populate(c, tenant: 3, events: 70)
                    let aIds = try ids(a, tenant: "ten_1")
                    let aEvents = try SQLiteEventStore(database: a).events(tenantId: "ten_1", filter: EventFilter(), afterId: 0, limit: 100)
                    _ = try SQLiteTenantMoveStore(database: b).importTenant(try #require(try SQLiteTenantMoveStore(database: a).export(tenantId: "ten_1")))
                    _ = try SQLiteTenantMoveStore(database: c).importTenant(try #require(try SQLiteTenantMoveStore(database: b).export(tenantId: "ten_1")))
                    let moves = SQLiteTenantMoveStore(database: c)
                    for (index, after) in aIds.enumerated() {
                        let here = try SQLiteEventStore(database: c).events(
                            tenantId: "ten_1", filter: EventFilter(), afterId: try moves.eventIdAfterMoves(after, tenantId: "ten_1"), limit: 100)
                        #expect(here.map(\.event) == aEvents.dropFirst(index + 1).map(\.event))
                    }
                    // Two moves on, each event still has the id it had where it was recorded.
                    let cEvents = try SQLiteEventStore(database: c).events(tenantId: "ten_1", filter: EventFilter(), afterId: 0, limit: 100)
                    #expect(cEvents.map(\.publicId) == aIds)
                    #expect(try cEvents.map { try moves.originalEventId($0.id, tenantId: "ten_1") } == aIds)
                }
            }
        }
    }

    @Test func anImportIsRefusedWhenTheTenantOrItsNameExists() throws {
        try withDatabase { source in
            try withDatabase { target in
                try populate(source, tenant: 1, events: 2)
                try populate(target, tenant: 1, events: 1)
                let document = try #require(try SQLiteTenantMoveStore(database: source).export(tenantId: "ten_1"))
                #expect(throws: StoreError.duplicate("tenant id")) { try SQLiteTenantMoveStore(database: target).importTenant(document) }
                var renamed = document
                renamed.tenantId = "ten_9"
                renamed.tables = renamed.tables.map { table in
                    var table = table
                    table.rows = table.rows.map { $0.map { $0 == .text("ten_1") ? .text("ten_9") : $0 } }
                    return table
                }
                // Same name (and key hash) as the target's tenant 1.
                #expect(throws: StoreError.self) { try SQLiteTenantMoveStore(database: target).importTenant(renamed) }
                #expect(try ids(target, tenant: "ten_9").isEmpty)  // nothing of it was written
            }
        }
    }

    @Test func aDocumentWithAnotherTenantsRowsOrAnUnknownTableIsRefused() throws {
        try withDatabase { source in
            try withDatabase { target in
                try populate(source, tenant: 1, events: 1)
                let document = try #require(try SQLiteTenantMoveStore(database: source).export(tenantId: "ten_1"))
                var foreign = document
                foreign.tables[2].rows[0][foreign.tables[2].columns.firstIndex(of: "tenant_id")!] = .text("ten_other")
                #expect(throws: TenantImportFailure.self) { try SQLiteTenantMoveStore(database: target).importTenant(foreign) }
                var unknown = document
                unknown.tables.append(TenantExport.Table(name: "settings", columns: ["name"], rows: []))
                #expect(throws: TenantImportFailure.self) { try SQLiteTenantMoveStore(database: target).importTenant(unknown) }
                var newer = document
                newer.schema.append("999_future")
                #expect(throws: TenantImportFailure.newerSchema(["999_future"])) {
                    try SQLiteTenantMoveStore(database: target).importTenant(newer)
                }
            }
        }
    }

    @Test func aFenceIsKeptInTheDatabase() throws {
        try withDatabase { database in
            try populate(database, tenant: 1, events: 0)
            let store = SQLiteTenantMoveStore(database: database)
            #expect(try store.fence(tenantId: "ten_1"))
            #expect(try store.fence(tenantId: "ten_1"))
            #expect(try !store.fence(tenantId: "ten_none"))
            #expect(try store.fencedTenants() == ["ten_1"])
            #expect(try store.unfence(tenantId: "ten_1"))
            #expect(try store.fencedTenants().isEmpty)
        }
    }

    @Test func runsMergeConsecutiveIdsAndMapAnyIdToTheLastPointAtOrBeforeIt() {
        let runs = EventIdMoves.runs(points: [3, 4, 5, 9, 12, 13], start: 100)
        #expect(runs == [
            .init(oldStart: 0, newStart: 100, length: 0), .init(oldStart: 3, newStart: 100, length: 3),
            .init(oldStart: 9, newStart: 103, length: 1), .init(oldStart: 12, newStart: 104, length: 2),
        ])
        #expect([0, 2, 3, 5, 6, 8, 9, 10, 12, 13, 50].map { EventIdMoves.translate($0, runs: runs) }
            == [99, 99, 100, 102, 102, 102, 103, 103, 104, 105, 105])
    }
}
