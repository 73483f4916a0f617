import Emulation
import Foundation
import Testing
@testable import Storage

/// Issue 13, write speed: the per-device counts of the event retention are kept by the appends only while a
/// per-device limit is in force (`EventCounts`), and migration 008 carries an existing database's counts and
/// watermarks over exactly.
@Suite struct EventCountsTests {
    struct Stores {
        let database: Database
        let devices: SQLiteDeviceStore
        let events: SQLiteEventStore

        /// Appends `count` events to the device (created if needed); answers their ids.
        @discardableResult
        func append(_ count: Int, to deviceId: String, tenantId: String = "ten_1") throws -> [Int64] {
            let device = makeDevice(deviceId, tenantId: tenantId)
            let events = (0..<count).map { n in
                EmulationEvent(type: EventType("test.event"), bundleId: nil, at: VirtualInstant(milliseconds: Int64(n)))
            }
            let written = date(1_767_225_600_000)
            if try devices.device(id: deviceId, tenantId: tenantId) == nil {
                return try devices.insert(device, appending: events, recordedAt: written).map(\.id)
            }
            return try devices.update(device, appending: events, recordedAt: written)?.map(\.id) ?? []
        }

        /// `event_counts`, as "tenant/device held", in order.
        func counts() throws -> [String] {
            try database.read { db in
                try db.query("SELECT tenant_id, device_id, held FROM event_counts ORDER BY 1, 2") {
                    "\(try $0.get(0, as: String.self))/\(try $0.get(1, as: String.self)) \(try $0.get(2, as: Int64.self))"
                }
            }
        }

        /// What the log holds per device, in the form of ``counts()``.
        func logCounts() throws -> [String] {
            try database.read { db in
                try db.query("SELECT tenant_id, device_id, count(*) FROM events GROUP BY 1, 2 ORDER BY 1, 2") {
                    "\(try $0.get(0, as: String.self))/\(try $0.get(1, as: String.self)) \(try $0.get(2, as: Int64.self))"
                }
            }
        }

        /// What `settings` says of the counts: `valid` without its row, else the row's value (`stale`).
        func validity() throws -> String {
            try database.read { db in
                try db.scalar("SELECT value FROM settings WHERE name = 'event_counts'", as: String.self)
            } ?? "valid"
        }

        /// Rows changed by the writer since it opened (`sqlite3_total_changes`).
        func totalChanges() -> Int { database.writeWithoutTransaction { $0.totalChanges } }
    }

    @discardableResult
    private func withStores<T>(_ body: (Stores) throws -> T) throws -> T {
        try withDatabase { database throws in
            let tenants = SQLiteTenantStore(database: database)
            for n in 1...2 {
                let (tenant, key) = makeTenant(n)
                try tenants.createTenant(tenant, firstKey: key)
            }
            return try body(Stores(
                database: database, devices: SQLiteDeviceStore(database: database), events: SQLiteEventStore(database: database)))
        }
    }

    @Test func countingOff_appendsWriteNoCounts_thenOnRecountsAndKeepsThemExact() throws {
        try withStores { s throws in
            #expect(try s.validity() == "valid")  // a new database counts from its first event (migration 008)
            #expect(try EventCounts.prepare(s.database, counting: false) == false)
            #expect(try s.validity() == "stale")
            try s.append(5, to: "dev_a")
            try s.append(3, to: "dev_b", tenantId: "ten_2")
            try s.append(2, to: "dev_a")
            #expect(try s.counts().isEmpty)

            // On: counted again from the log, then kept by every append.
            #expect(try EventCounts.prepare(s.database, counting: true) == true)
            #expect(try s.validity() == "valid")
            #expect(try s.counts() == ["ten_1/dev_a 7", "ten_2/dev_b 3"])
            #expect(try s.counts() == s.logCounts())
            try s.append(4, to: "dev_a")
            try s.append(1, to: "dev_c")
            #expect(try s.counts() == ["ten_1/dev_a 11", "ten_1/dev_c 1", "ten_2/dev_b 3"])
            #expect(try s.counts() == s.logCounts())

            // A prune by count goes by them, and lowers them.
            let report = try EventPruner(
                database: s.database, retention: EventRetention(maximumPerDevice: 2), lockBudget: nil, minimumPause: .zero
            ).prune()
            #expect(report.events == 9 + 1)
            #expect(try s.counts() == ["ten_1/dev_a 2", "ten_1/dev_c 1", "ten_2/dev_b 2"])
            #expect(try s.counts() == s.logCounts())
        }
    }

    @Test func countingOnWhenValidCountsNothingAgain_offThenOnAgainRecounts() throws {
        try withStores { s throws in
            try s.append(3, to: "dev_a")
            // A count that no recount would give: only a recount would change it.
            try s.database.write { db in try db.execute("UPDATE event_counts SET held = 999", []) }
            #expect(try EventCounts.prepare(s.database, counting: true) == false)
            #expect(try s.counts() == ["ten_1/dev_a 999"])

            #expect(try EventCounts.prepare(s.database, counting: false) == false)
            #expect(try s.validity() == "stale")
            #expect(try EventCounts.prepare(s.database, counting: false) == false)  // off when off: nothing
            try s.append(2, to: "dev_a")
            #expect(try s.counts() == ["ten_1/dev_a 999"])  // not counted while off
            #expect(try EventCounts.prepare(s.database, counting: true) == true)
            #expect(try s.counts() == ["ten_1/dev_a 5"])
            #expect(try s.validity() == "valid")
            // The recount's sort went to a file; the writer's temporary files are in memory again (2).
            #expect(try s.database.writeWithoutTransaction { try $0.scalar("PRAGMA temp_store", as: Int.self) } == 2)
        }
    }

    /// Counting is a state of the database: a new `Database` on the same file reads it from `settings`.
    @Test func theCountingStateOutlivesTheProcess() throws {
        try withTemporaryPath { path throws in
            do {
                let database = try openDatabase(path: path)
                defer { database.close() }
                try EventCounts.prepare(database, counting: false)
            }
            let database = try openDatabase(path: path)
            defer { database.close() }
            let (tenant, key) = makeTenant(1)
            try SQLiteTenantStore(database: database).createTenant(tenant, firstKey: key)
            let s = Stores(
                database: database, devices: SQLiteDeviceStore(database: database), events: SQLiteEventStore(database: database))
            try s.append(2, to: "dev_a")
            #expect(try s.counts().isEmpty)  // still off, without a call
            #expect(try EventCounts.prepare(database, counting: true) == true)
            #expect(try s.counts() == ["ten_1/dev_a 2"])
        }
    }

    /// Without a per-device limit, an append writes the device's row and its events, and nothing else: no count
    /// (the B-trees of `event_counts` are not written).
    @Test func anAppendWithoutAPerDeviceLimitChangesOnlyTheDeviceAndItsEvents() throws {
        try withStores { s throws in
            try EventCounts.prepare(s.database, counting: false)
            var before = s.totalChanges()
            try s.append(3, to: "dev_a")
            #expect(s.totalChanges() - before == 1 + 3)  // the device's row, its events
            before = s.totalChanges()
            try s.append(2, to: "dev_a")
            #expect(s.totalChanges() - before == 1 + 2)
            #expect(try s.counts().isEmpty)

            // The same append with a limit: one more row changed, the count (the measure sees it).
            try EventCounts.prepare(s.database, counting: true)
            before = s.totalChanges()
            try s.append(2, to: "dev_a")
            #expect(s.totalChanges() - before == 1 + 2 + 1)
        }
    }

    /// A pruner used without the service's startup call (counting off) switches counting on before it prunes by count.
    @Test func aPrunerByCountSwitchesCountingOnItself() throws {
        try withStores { s throws in
            try EventCounts.prepare(s.database, counting: false)
            let ids = try s.append(10, to: "dev_a")
            let report = try EventPruner(
                database: s.database, retention: EventRetention(maximumPerDevice: 4), minimumPause: .zero
            ).prune()
            #expect(report.events == 6)
            #expect(try s.validity() == "valid")
            #expect(try s.counts() == ["ten_1/dev_a 4"])
            #expect(try s.events.prunedRange(tenantId: "ten_1", deviceId: "dev_a") == .init(lastPrunedId: ids[5], oldestHeldId: ids[6]))
        }
    }

    /// By age with counting off: the watermarks are raised as ever, and no count is written.
    @Test func aPruneByAgeWithCountingOffRaisesTheWatermarksOnly() throws {
        try withStores { s throws in
            try EventCounts.prepare(s.database, counting: false)
            let a = try s.append(3, to: "dev_a")
            let b = try s.append(2, to: "dev_b", tenantId: "ten_2")
            let report = try EventPruner(
                database: s.database, retention: EventRetention(maximumAge: 60), minimumPause: .zero,
                now: { date(1_767_225_600_000).addingTimeInterval(3_600) }
            ).prune()
            #expect(report.events == 5)
            #expect(try s.counts().isEmpty)
            #expect(try s.validity() == "stale")
            #expect(try s.events.prunedRange(tenantId: "ten_1", deviceId: nil) == .init(lastPrunedId: a[2], oldestHeldId: nil))
            #expect(try s.events.prunedRange(tenantId: "ten_2", deviceId: "dev_b") == .init(lastPrunedId: b[1], oldestHeldId: nil))
        }
    }

    /// More devices over the limit than one scan lists: the pruner goes through the list, then scans again.
    @Test func thePrunerScansAgainOnceItsListOfDevicesOverTheLimitIsUsedUp() throws {
        try withStores { s throws in
            let devices = EventPruner.candidatesPerScan + 20
            try s.database.write { db in
                // Device n holds n + 2 events: the most over first.
                try db.execute(
                    """
                    WITH RECURSIVE n(value) AS (SELECT 0 UNION ALL SELECT value + 1 FROM n WHERE value < ?),
                        e(device, k) AS (SELECT value, 0 FROM n UNION ALL SELECT device, k + 1 FROM e WHERE k <= device)
                    INSERT INTO events (tenant_id, device_id, type, at, recorded_at, data)
                    SELECT 'ten_1', 'dev_' || device, 'test.event', k, '2026-01-01T00:00:00.000Z', '{}' FROM e ORDER BY device, k
                    """, [Int64(devices - 1)])
            }
            try EventCounts.prepare(s.database, counting: false)
            try EventCounts.prepare(s.database, counting: true)  // counted from the log
            let report = try EventPruner(
                database: s.database, retention: EventRetention(maximumPerDevice: 1), lockBudget: nil, minimumPause: .zero
            ).prune()
            #expect(report.batches == devices)  // one per device: each fits a batch
            #expect(report.events == (0..<devices).reduce(0) { $0 + $1 + 1 })
            let held = try s.database.read { db in
                try db.query("SELECT count(*) FROM events GROUP BY device_id") { try $0.get(0, as: Int.self) }
            }
            #expect(held == Array(repeating: 1, count: devices))
            #expect(try s.counts() == s.logCounts())
        }
    }
}
