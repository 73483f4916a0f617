import Emulation
import Foundation
import Synchronization
import Testing
@testable import Storage
import Stores

/// The event retention (issue 12 §2): pruning by count and by age in small batches, the watermarks that make a page
/// or resume from before the retained range detectable, and writers that wait for one batch at most.
@Suite struct EventPrunerTests {
    struct Stores {
        let database: Database
        let tenants: SQLiteTenantStore
        let devices: SQLiteDeviceStore
        let events: SQLiteEventStore

        /// Appends `count` events to the device (created if needed), written at `recordedAt`; answers their ids.
        @discardableResult
        func append(_ count: Int, to deviceId: String, tenantId: String = "ten_1", recordedAt: Date,
                    virtualAt: Int64 = 1_767_225_600_000) throws -> [Int64] {
            let device = makeDevice(deviceId, tenantId: tenantId)
            let events = (0..<count).map { n in
                EmulationEvent(type: EventType("test.event"), bundleId: nil, at: VirtualInstant(milliseconds: virtualAt + Int64(n)))
            }
            if try self.devices.device(id: deviceId, tenantId: tenantId) == nil {
                return try self.devices.insert(device, appending: events, recordedAt: recordedAt).map(\.id)
            }
            return try self.devices.update(device, appending: events, recordedAt: recordedAt)?.map(\.id) ?? []
        }

        func ids(_ tenantId: String = "ten_1", device: String? = nil) throws -> [Int64] {
            try events.events(tenantId: tenantId, filter: EventFilter(deviceId: device), afterId: 0, limit: 10_000).map(\.id)
        }

        func held(_ deviceId: String, tenantId: String = "ten_1") throws -> Int64? {
            try database.read { db in
                try db.scalar(
                    "SELECT held FROM event_counts WHERE tenant_id = ? AND device_id = ?", [tenantId, deviceId],
                    as: Int64.self)
            }
        }
    }

    @discardableResult
    private func withStores<T>(_ body: (Stores) throws -> T) throws -> T {
        try withDatabase { database throws in
            let tenants = SQLiteTenantStore(database: database)
            for n in 1...2 {
                let (tenant, key) = makeTenant(n)
                try tenants.createTenant(tenant, firstKey: key)
            }
            return try body(
                Stores(database: database, tenants: tenants, devices: SQLiteDeviceStore(database: database),
                       events: SQLiteEventStore(database: database)))
        }
    }

    private let written = date(1_767_225_600_000)

    @Test func retentionByCountKeepsTheNewestEventsOfEachDeviceAndRecordsTheWatermark() throws {
        try withStores { s throws in
            let a = try s.append(10, to: "dev_a", recordedAt: written)
            let b = try s.append(3, to: "dev_b", recordedAt: written)
            let later = try s.append(2, to: "dev_a", recordedAt: written)
            #expect(try s.held("dev_a") == 12)
            #expect(try s.events.prunedRange(tenantId: "ten_1", deviceId: "dev_a") == nil)

            let pruner = EventPruner(
                database: s.database, retention: EventRetention(maximumPerDevice: 4), batchSize: 3, lockBudget: nil,
                minimumPause: .zero)
            let report = try pruner.prune()
            #expect(report.events == 8)
            #expect(report.batches == 3)  // 8 over the limit, 3 per batch
            #expect(try s.ids(device: "dev_a") == Array(a.suffix(2)) + later)
            #expect(try s.ids(device: "dev_b") == b)
            #expect(try s.held("dev_a") == 4)
            #expect(try s.held("dev_b") == 3)
            #expect(try s.events.prunedRange(tenantId: "ten_1", deviceId: "dev_a")
                    == .init(lastPrunedId: a[7], oldestHeldId: a[8]))
            #expect(try s.events.prunedRange(tenantId: "ten_1", deviceId: "dev_b") == nil)
            // The tenant's watermark is its devices' greatest; after it, the oldest event of the tenant.
            #expect(try s.events.prunedRange(tenantId: "ten_1", deviceId: nil) == .init(lastPrunedId: a[7], oldestHeldId: a[8]))
            #expect(try s.events.prunedRange(tenantId: "ten_2", deviceId: nil) == nil)
            // Within the retention now: a second pass does nothing.
            #expect(try pruner.prune().events == 0)
        }
    }

    @Test func retentionByAgeMeasuresTheWallTimeOfWritingNotTheVirtualTime() throws {
        try withStores { s throws in
            let day: TimeInterval = 86_400
            // Old writes of a device whose virtual clock is years ahead; a young write whose virtual time is old.
            let old = try s.append(3, to: "dev_a", recordedAt: written, virtualAt: 4_000_000_000_000)
            let oldOther = try s.append(2, to: "dev_c", tenantId: "ten_2", recordedAt: written.addingTimeInterval(60))
            let young = try s.append(2, to: "dev_a", recordedAt: written.addingTimeInterval(2 * day), virtualAt: 0)
            let clock = Mutex(written.addingTimeInterval(3 * day))
            let pruner = EventPruner(
                database: s.database, retention: EventRetention(days: 2, perDevice: 0), batchSize: 2,
                lockBudget: nil, minimumPause: .zero, now: { clock.withLock { $0 } })

            let report = try pruner.prune()
            #expect(report.events == 5)
            #expect(report.batches == 3)
            #expect(try s.ids(device: "dev_a") == young)
            #expect(try s.ids("ten_2").isEmpty)
            #expect(try s.events.prunedRange(tenantId: "ten_1", deviceId: "dev_a") == .init(lastPrunedId: old[2], oldestHeldId: young[0]))
            #expect(try s.events.prunedRange(tenantId: "ten_2", deviceId: "dev_c") == .init(lastPrunedId: oldOther[1], oldestHeldId: nil))
            #expect(try s.held("dev_a") == 2)
            #expect(try s.held("dev_c", tenantId: "ten_2") == 0)

            // Two more days: the young ones are old too.
            clock.withLock { $0 = written.addingTimeInterval(4 * day + 1) }
            #expect(try pruner.prune().events == 2)
            #expect(try s.events.prunedRange(tenantId: "ten_1", deviceId: "dev_a") == .init(lastPrunedId: young[1], oldestHeldId: nil))
            // Ids are never reused: the next event follows the pruned ones.
            let next = try s.append(1, to: "dev_a", recordedAt: written.addingTimeInterval(4 * day + 2))
            #expect(next[0] > young[1])
            #expect(try s.events.prunedRange(tenantId: "ten_1", deviceId: "dev_a") == .init(lastPrunedId: young[1], oldestHeldId: next[0]))
        }
    }

    @Test func byAgeAnEventGoesOnlyOnceEveryEarlierOneIsOldEnough() throws {
        try withStores { s throws in
            // A wall clock set back: the second write is stamped earlier than the first.
            let first = try s.append(1, to: "dev_a", recordedAt: written.addingTimeInterval(1000))
            let second = try s.append(1, to: "dev_a", recordedAt: written)
            let pruner = EventPruner(
                database: s.database, retention: EventRetention(maximumAge: 100), minimumPause: .zero,
                now: { [written] in written.addingTimeInterval(500) })
            #expect(try pruner.prune().events == 0)  // the first is young; the second waits behind it
            #expect(try s.ids() == first + second)
        }
    }

    @Test func aPassStopsAfterItsBatchesAndTheNextGoesOn() throws {
        try withStores { s throws in
            try s.append(50, to: "dev_a", recordedAt: written)
            let pruner = EventPruner(
                database: s.database, retention: EventRetention(maximumPerDevice: 10), batchSize: 7, lockBudget: nil,
                minimumPause: .zero)
            let first = try pruner.prune(maximumBatches: 2)
            #expect(first.events == 14)
            #expect(first.batches == 2)
            #expect(first.longestBatch > .zero && first.longestBatch <= first.lockHeld)
            #expect(try s.held("dev_a") == 36)
            #expect(try pruner.prune().events == 26)
            #expect(try s.ids(device: "dev_a").count == 10)
        }
    }

    @Test func aBatchOverTheLockBudgetHalvesTheNextAndOneWellUnderItGrowsIt() throws {
        try withStores { s throws in
            try s.append(2_000, to: "dev_a", recordedAt: written)
            try s.append(10_000, to: "dev_b", recordedAt: written)
            // Every batch takes longer than a nanosecond: 250, 125, 62, then never under 50.
            let shrinking = try EventPruner(
                database: s.database, retention: EventRetention(maximumPerDevice: 1_000), lockBudget: .nanoseconds(1),
                minimumPause: .zero
            ).prune(maximumBatches: 5)
            #expect(shrinking.events == 250 + 125 + 62 + 50 + 50)
            // No batch takes an hour: 250, then half as large again each time, up to the batch size.
            let growing = try EventPruner(
                database: s.database, retention: EventRetention(maximumPerDevice: 1_000), batchSize: 1_500,
                lockBudget: .seconds(3_600), minimumPause: .zero
            ).prune(maximumBatches: 6)
            #expect(growing.events == 250 + 376 + 565 + 848 + 1_273 + 1_500)
        }
    }

    @Test func deletingATenantDeletesItsRetentionRows() throws {
        try withStores { s throws in
            try s.append(5, to: "dev_a", recordedAt: written)
            try EventPruner(database: s.database, retention: EventRetention(maximumPerDevice: 2), minimumPause: .zero).prune()
            // Each table holds a row of the tenant before.
            for table in ["event_counts", "event_watermarks", "tenant_event_watermarks"] {
                let rows = try s.database.read { db in try db.scalar("SELECT count(*) FROM \(table)", as: Int.self) }
                #expect(rows == 1, "\(table)")
            }
            #expect(try s.tenants.deleteTenant(id: "ten_1"))
            for table in ["event_counts", "event_watermarks", "tenant_event_watermarks"] {
                let rows = try s.database.read { db in try db.scalar("SELECT count(*) FROM \(table)", as: Int.self) }
                #expect(rows == 0, "\(table)")
            }
        }
    }

    /// Every statement of the retention about one device or one tenant goes by a key; the one scan is the list of
    /// the devices over the limit (`event_counts`, on a reader, once per round of up to 256 devices). The upserts
    /// (`EventCounts.add`, the watermarks) have no plan to show: their conflict target is the primary key, the only
    /// key those tables have (`DatabaseMigratorTests` lists the indexes).
    @Test func theRetentionQueriesUseIndexesNotScans() throws {
        try withStores { s throws in
            let keyed: [(sql: String, uses: String)] = [
                (EventCounts.Statement.held, "event_counts USING PRIMARY KEY"),
                (EventCounts.Statement.subtract, "event_counts USING PRIMARY KEY"),
                (EventCounts.Statement.recountDevice, "event_counts USING PRIMARY KEY"),
                (EventCounts.Statement.recountDevice, "events_by_device"),
                ("SELECT id FROM events WHERE tenant_id = 'ten_1' AND device_id = 'dev_a' ORDER BY id LIMIT 1 OFFSET 5",
                 "events_by_device"),
                ("DELETE FROM events WHERE tenant_id = 'ten_1' AND device_id = 'dev_a' AND id <= 7", "events_by_device"),
                (SQLiteEventStore.deviceWatermark, "event_watermarks USING PRIMARY KEY"),
                (SQLiteEventStore.tenantWatermark, "tenant_event_watermarks USING PRIMARY KEY"),
                ("SELECT min(id) FROM events WHERE tenant_id = 'ten_1' AND device_id = 'dev_a' AND id > 3",
                 "events_by_device"),
                ("SELECT min(id) FROM events WHERE tenant_id = 'ten_1' AND id > 3", "events_by_tenant"),
            ]
            let plan = { (sql: String) in
                try s.database.read { db in
                    // The statements' own text, their parameters bound to NULL: the plan does not depend on values.
                    let explain = try db.makeStatement("EXPLAIN QUERY PLAN " + sql)
                    let arguments: SQLiteArguments = Array(repeating: nil, count: explain.parameterCount)
                    return try explain.query(arguments) { try $0.get(3, as: String.self) }.joined(separator: "; ")
                }
            }
            for (sql, uses) in keyed {
                let found = try plan(sql)
                #expect(found.contains(uses), "\(sql): \(found)")
                #expect(!found.contains("SCAN"), "\(sql): \(found)")
            }
            // The age walks the table's own key from its start, in order, and stops at the first young event.
            let byAge = try plan("SELECT id, tenant_id, device_id, recorded_at FROM events ORDER BY id LIMIT 5")
            #expect(!byAge.contains("TEMP B-TREE") && !byAge.contains("events_by"), "\(byAge)")
            // The deliberate scan: the whole of `event_counts`, for the devices over the limit.
            let candidates = try plan(EventCounts.Statement.overLimit)
            #expect(candidates.contains("SCAN event_counts"), "\(candidates)")
        }
    }

    @Test func migration006CountsTheEventsOfADatabaseWrittenByAnEarlierBuild() throws {
        try withTemporaryPath { path throws in
            // The schema of the build before retention: the first five migrations.
            var earlier = DatabaseMigrator()
            for migration in DatabaseMigrator.bgemu.migrations.prefix(5) {
                earlier.registerMigration(migration.name, migration.body)
            }
            #expect(earlier.names.last == "005_idempotency")
            do {
                let database = try openDatabase(path: path, migrator: earlier)
                defer { database.close() }
                let (tenant, key) = makeTenant(1)
                try SQLiteTenantStore(database: database).createTenant(tenant, firstKey: key)
                try database.write { db in
                    for (n, device) in ["dev_a", "dev_a", "dev_a", "dev_b"].enumerated() {
                        try db.execute(
                            """
                            INSERT INTO events (tenant_id, device_id, type, at, recorded_at, data)
                            VALUES ('ten_1', ?, 'test.event', ?, '2026-01-01T00:00:00.000Z', '{}')
                            """, [device, Int64(n)])
                    }
                }
            }
            let database = try openDatabase(path: path)
            defer { database.close() }
            // Counted by 006, carried over by 008; nothing pruned yet.
            let counts = try database.read { db in
                try db.query("SELECT device_id, held FROM event_counts ORDER BY device_id") {
                    "\(try $0.get(0, as: String.self)) \(try $0.get(1, as: Int64.self))"
                }
            }
            #expect(counts == ["dev_a 3", "dev_b 1"])
            #expect(try database.read { db in try db.scalar("SELECT count(*) FROM event_watermarks", as: Int.self) } == 0)
            let report = try EventPruner(database: database, retention: EventRetention(maximumPerDevice: 1), minimumPause: .zero).prune()
            #expect(report.events == 2)
            #expect(try SQLiteEventStore(database: database).prunedRange(tenantId: "ten_1", deviceId: "dev_a")
                    == .init(lastPrunedId: 2, oldestHeldId: 3))
        }
    }

    /// A large backlog pruned while a writer appends: each write waits for one batch at most, and writes commit
    /// between the batches (one long transaction would hold them all until it ends). Counted in commits, not in
    /// milliseconds: the commits are told apart by the thread that made them, and each write counts the pruner's
    /// commits that happened while it waited, so a loaded machine, which stretches batches and writes alike,
    /// changes none of the counts.
    @Test func writersWaitForOneBatchAtMostWhileABacklogIsPruned() throws {
        try withStores { s throws in
            let backlog = 60_000
            try s.database.write { db in
                try db.execute(
                    """
                    INSERT INTO events (tenant_id, device_id, type, at, recorded_at, data)
                    SELECT 'ten_1', 'dev_a', 'test.event', value, '2026-01-01T00:00:00.000Z', '{"n":1}'
                    FROM (WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < ?) SELECT value FROM n)
                    """, [Int64(backlog)])
                try db.execute(
                    "INSERT INTO event_counts (tenant_id, device_id, held) VALUES ('ten_1', 'dev_a', ?)", [Int64(backlog)])
            }
            try s.append(1, to: "dev_w", recordedAt: written)
            let pruner = EventPruner(
                database: s.database, retention: EventRetention(maximumPerDevice: 1_000), batchSize: 2_000)
            let done = Atomic<Bool>(false)
            let finished = DispatchSemaphore(value: 0)
            let clock = ContinuousClock()
            let waits = Mutex<[Duration]>([])
            // Every commit from now on, in order: true for the writer's, false for the pruner's.
            let writerThread = Atomic<UInt>(0)
            let commits = Mutex<[Bool]>([])
            let prunerCommits = Atomic<Int>(0)
            s.database.observeCommits { _ in
                let byWriter = writerThread.load(ordering: .acquiring) == UInt(pthread_self())
                if !byWriter { prunerCommits.add(1, ordering: .sequentiallyConsistent) }
                commits.withLock { $0.append(byWriter) }
            }
            // For each write, the pruner's commits while it was under way.
            let spans = Mutex<[Int]>([])
            let writer = Thread {
                writerThread.store(UInt(pthread_self()), ordering: .releasing)
                while !done.load(ordering: .acquiring) {
                    let start = clock.now
                    let before = prunerCommits.load(ordering: .sequentiallyConsistent)
                    _ = try? s.append(1, to: "dev_w", recordedAt: Date())
                    let spanned = prunerCommits.load(ordering: .sequentiallyConsistent) - before
                    let wait = clock.now - start
                    waits.withLock { $0.append(wait) }
                    spans.withLock { $0.append(spanned) }
                }
                finished.signal()
            }
            writer.start()
            let started = clock.now
            let report = try pruner.prune()
            let elapsed = clock.now - started
            done.store(true, ordering: .releasing)
            #expect(finished.wait(timeout: .now() + 60) == .success)  // the writer's last append is done
            let measured = waits.withLock { $0 }
            let longestWait = measured.max() ?? .zero
            let spanned = spans.withLock { $0 }
            let order = commits.withLock { $0 }
            // The gaps between two commits of the pruner, and those a write of the writer committed in.
            let prunerAt = order.indices.filter { !order[$0] }
            let gapsWithAWrite = zip(prunerAt, prunerAt.dropFirst()).filter { order[($0 + 1)..<$1].contains(true) }.count
            print(
                "[retention] pruned \(report.events) events in \(report.batches) batches of ≤ 2000 in \(elapsed); "
                    + "write lock held per batch: longest \(report.longestBatch), mean \(report.lockHeld / report.batches); "
                    + "\(measured.count) writes meanwhile, longest \(longestWait); \(prunerAt.count) commits of the pruner, "
                    + "\(gapsWithAWrite) of the gaps between them with a write, a write spanning \(spanned.max() ?? 0) at most")
            #expect(report.events >= backlog - 1_000)  // and the writer's own device's, past 1,000
            #expect(report.batches >= 30)  // at most 2,000 each
            #expect(try s.held("dev_a") == 1_000)
            // One commit a batch, not one transaction for the pass...
            #expect(prunerAt.count >= report.batches)
            // ...writers got in between the batches (the pause after each lets them: half the gaps, for a writer
            // the scheduler left out of a few)...
            #expect(measured.count >= report.batches)
            #expect(gapsWithAWrite >= report.batches / 2, "\(gapsWithAWrite) of \(prunerAt.count - 1) gaps")
            // ...and no write waited for many batches: one or two (the one under way when it began, and the next when
            // its own reading outlasts the pause), a third of them at most, where batches that did not pause for the
            // writers would make a write wait for most of them.
            #expect(spanned.max() ?? 0 <= report.batches / 3, "a write spanned \(spanned.max() ?? 0) of the pruner's commits")
        }
    }
}
