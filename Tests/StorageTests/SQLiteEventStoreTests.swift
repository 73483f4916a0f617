import Emulation
import Foundation
import Synchronization
import Testing
@testable import Storage
import Stores

@Suite struct SQLiteEventStoreTests {
    /// Stores on a database with two tenants.
    struct Stores {
        let database: Database
        let tenants: SQLiteTenantStore
        let devices: SQLiteDeviceStore
        let events: SQLiteEventStore

        /// Every event of `tenantId` passing `filter`, read a page of `pageSize` at a time.
        func all(_ tenantId: String, _ filter: EventFilter = EventFilter(), pageSize: Int = 1000) throws -> [RecordedEvent] {
            var out: [RecordedEvent] = []
            while true {
                let page = try events.events(tenantId: tenantId, filter: filter, afterId: out.last?.id ?? 0, limit: pageSize)
                out += page
                if page.count < pageSize { return out }
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
                Stores(
                    database: database, tenants: tenants, devices: SQLiteDeviceStore(database: database),
                    events: SQLiteEventStore(database: database)))
        }
    }

    private func event(_ type: String, bundleId: String? = nil, at: Int64 = 1_767_225_600_000,
                       data: [String: EventValue] = [:]) -> EmulationEvent {
        EmulationEvent(type: EventType(type), bundleId: bundleId, at: VirtualInstant(milliseconds: at), data: data)
    }

    private let wall = date(1_767_225_700_123)

    @Test func insertWritesTheDeviceAndItsEventsAndAnswersThemWithIds() throws {
        try withStores { s throws in
            let device = makeDevice("dev_a", tenantId: "ten_1")
            let data: [String: EventValue] = [
                "nested": ["list": [1, 2.5, .null, "x"], "flag": true], "big": .int(Int64.max), "whole": 30.0, "none": .null,
            ]
            let recorded = try s.devices.insert(
                device, appending: [event("device.created", data: data), event("app.installed", bundleId: "com.a", at: 7)],
                recordedAt: Date(timeIntervalSince1970: 1_767_225_700.1234))
            #expect(recorded.map(\.id) == [1, 2])
            #expect(recorded.allSatisfy { $0.tenantId == "ten_1" && $0.deviceId == "dev_a" })
            #expect(recorded[0].recordedAt == wall)  // kept to the millisecond, as it reads back
            #expect(try s.devices.device(id: "dev_a", tenantId: "ten_1") == device)
            // What was answered is what is read back, data included.
            #expect(try s.all("ten_1") == recorded)
            #expect(try s.all("ten_1")[0].event.data == data)
            #expect(try s.all("ten_1")[1].event.at == VirtualInstant(milliseconds: 7))
            #expect(try s.events.latestEventId() == 2)
        }
    }

    /// A write's events go in statements of several rows (64, 8, then one by one): whatever the count, they get
    /// consecutive ids in their order, and each row reads back as the event it was, data and all.
    @Test(arguments: [1, 7, 8, 9, 63, 64, 65, 75, 137])
    func eventsOfAWriteGetConsecutiveIdsInTheirOrder(count: Int) throws {
        try withStores { s throws in
            let device = makeDevice("dev_a", tenantId: "ten_1")
            _ = try s.devices.insert(device, appending: [event("device.created")], recordedAt: wall)
            let events = (0..<count).map { n in
                event(
                    "run.n\(n % 5)", bundleId: n % 3 == 0 ? nil : "com.app\(n % 4)", at: 1_767_225_600_000 + Int64(n),
                    data: ["n": .int(Int64(n)), "text": .string(String(repeating: "x", count: n % 17)), "even": .bool(n % 2 == 0)])
            }
            let recorded = try #require(try s.devices.update(device, appending: events, recordedAt: wall))
            #expect(recorded.map(\.id) == Array(2...Int64(count + 1)))
            #expect(recorded.map(\.event) == events)
            #expect(try s.all("ten_1") == [try s.all("ten_1")[0]] + recorded)
            // The next write goes on from there.
            let next = try #require(try s.devices.update(device, appending: [event("after")], recordedAt: wall))
            #expect(next.map(\.id) == [Int64(count + 2)])
        }
    }

    @Test func updateAppendsAndAnswersNilForAGoneDevice() throws {
        try withStores { s throws in
            var device = makeDevice("dev_a", tenantId: "ten_1")
            try s.devices.insert(device)
            device.name = "renamed"
            let recorded = try #require(try s.devices.update(device, appending: [event("device.renamed")], recordedAt: wall))
            #expect(recorded.map(\.id) == [1])
            #expect(try s.devices.device(id: "dev_a", tenantId: "ten_1")?.name == "renamed")
            #expect(try s.devices.update(device, appending: [], recordedAt: wall)?.isEmpty == true)

            // Another tenant's id, or a deleted device: nil, and no event.
            var foreign = device
            foreign.tenantId = "ten_2"
            #expect(try s.devices.update(foreign, appending: [event("x")], recordedAt: wall) == nil)
            #expect(try s.devices.delete(id: "dev_a", tenantId: "ten_1"))
            #expect(try s.devices.update(device, appending: [event("x")], recordedAt: wall) == nil)
            #expect(try s.all("ten_1").map(\.id) == [1])
            #expect(try s.all("ten_2").isEmpty)
        }
    }

    @Test func aFailingEventLeavesNeitherTheDeviceNorAnyEvent() throws {
        try withStores { s throws in
            try s.database.write { db throws in
                try db.execute(
                    """
                    CREATE TRIGGER refuse_boom BEFORE INSERT ON events WHEN NEW.type = 'boom'
                    BEGIN SELECT RAISE(ABORT, 'boom refused'); END
                    """)
            }
            var device = makeDevice("dev_a", tenantId: "ten_1")
            #expect(throws: SQLiteError.self) {
                _ = try s.devices.insert(device, appending: [event("fine"), event("boom")], recordedAt: wall)
            }
            #expect(try s.devices.device(id: "dev_a", tenantId: "ten_1") == nil)
            #expect(try s.all("ten_1").isEmpty)

            try s.devices.insert(device)
            device.name = "changed"
            #expect(throws: SQLiteError.self) {
                try s.devices.update(device, appending: [event("fine"), event("boom")], recordedAt: wall)
            }
            #expect(try s.devices.device(id: "dev_a", tenantId: "ten_1")?.name == "Device dev_a")
            #expect(try s.all("ten_1").isEmpty)

            // Data that cannot be written fails before anything is.
            #expect(throws: EventJSON.Failure.self) {
                try s.devices.update(device, appending: [event("fine", data: ["x": .double(.nan)])], recordedAt: wall)
            }
            #expect(try s.devices.device(id: "dev_a", tenantId: "ten_1")?.name == "Device dev_a")

            // A duplicate device id: no event either, and the store's own error.
            #expect(throws: StoreError.duplicate("device id")) {
                _ = try s.devices.insert(makeDevice("dev_a", tenantId: "ten_1"), appending: [event("fine")], recordedAt: wall)
            }
            #expect(try s.all("ten_1").isEmpty)
            // Ids rolled back are handed out again: the log has no holes.
            #expect(try s.devices.update(device, appending: [event("fine")], recordedAt: wall)?.map(\.id) == [1])
        }
    }

    @Test func idsIncreaseAcrossDevicesAndTenantsAndAreNeverReused() throws {
        try withStores { s throws in
            var ids: [Int64] = []
            for n in 0..<6 {
                let device = makeDevice("dev_\(n)", tenantId: n.isMultiple(of: 2) ? "ten_1" : "ten_2")
                ids += try s.devices.insert(device, appending: [event("a"), event("b")], recordedAt: wall).map(\.id)
            }
            #expect(ids == Array(1...12))
            #expect(try s.tenants.deleteTenant(id: "ten_2"))
            let (tenant, key) = makeTenant(3)
            try s.tenants.createTenant(tenant, firstKey: key)
            let next = try s.devices.insert(makeDevice("dev_x", tenantId: "ten_3"), appending: [event("c")], recordedAt: wall)
            #expect(next.map(\.id) == [13])
            #expect(try s.events.latestEventId() == 13)
        }
    }

    @Test func concurrentWritersGetDistinctIdsInCommitOrder() throws {
        try withStores { s throws in
            let threads = 4, perThread = 25
            for n in 0..<threads { try s.devices.insert(makeDevice("dev_\(n)", tenantId: "ten_\(n % 2 + 1)")) }
            let seen = Mutex<[[Int64]]>(Array(repeating: [], count: threads))
            let devices = s.devices
            DispatchQueue.concurrentPerform(iterations: threads) { n in
                let device = makeDevice("dev_\(n)", tenantId: "ten_\(n % 2 + 1)")
                for _ in 0..<perThread {
                    let ids = (try? devices.update(device, appending: [event("a"), event("b")], recordedAt: wall))??.map(\.id)
                    seen.withLock { $0[n] += ids ?? [] }
                }
            }
            let perWriter = seen.withLock { $0 }
            #expect(perWriter.allSatisfy { $0 == $0.sorted() && $0.count == perThread * 2 })
            // One transaction's events are consecutive.
            #expect(perWriter.allSatisfy { ids in stride(from: 0, to: ids.count, by: 2).allSatisfy { ids[$0 + 1] == ids[$0] + 1 } })
            #expect(perWriter.flatMap { $0 }.sorted() == Array(1...Int64(threads * perThread * 2)))
        }
    }

    @Test func filtersNarrowByDeviceAppAndTypePrefix() throws {
        try withStores { s throws in
            let allTypes = ["run.started", "run.completed", "runaway.x", "app.stateChanged", "a%b.c", "aXb.c", "a_b.c", "a\\b"]
            for device in ["dev_a", "dev_b"] {
                let events = allTypes.enumerated().map { index, type in event(type, bundleId: index.isMultiple(of: 2) ? "com.even" : nil) }
                _ = try s.devices.insert(makeDevice(device, tenantId: "ten_1"), appending: events, recordedAt: wall)
            }
            func types(_ filter: EventFilter) throws -> [String] { try s.all("ten_1", filter).map(\.event.type.rawValue) }
            #expect(try types(EventFilter(deviceId: "dev_b")) == allTypes)
            #expect(try s.all("ten_1", EventFilter(deviceId: "dev_b")).allSatisfy { $0.deviceId == "dev_b" })
            #expect(try types(EventFilter(deviceId: "dev_none")).isEmpty)
            #expect(try types(EventFilter(deviceId: "dev_a", bundleId: "com.even")) == ["run.started", "runaway.x", "a%b.c", "a_b.c"])
            #expect(try types(EventFilter(deviceId: "dev_a", typePrefix: "run.")) == ["run.started", "run.completed"])
            #expect(try types(EventFilter(deviceId: "dev_a", typePrefix: "run")) == ["run.started", "run.completed", "runaway.x"])
            // `%`, `_` and `\` are plain characters.
            #expect(try types(EventFilter(deviceId: "dev_a", typePrefix: "a%")) == ["a%b.c"])
            #expect(try types(EventFilter(deviceId: "dev_a", typePrefix: "a_")) == ["a_b.c"])
            #expect(try types(EventFilter(deviceId: "dev_a", typePrefix: "a\\")) == ["a\\b"])
            #expect(try types(EventFilter(deviceId: "dev_a", typePrefix: "")).count == allTypes.count)
            #expect(try types(EventFilter(deviceId: "dev_a", typePrefix: "run.started.more")).isEmpty)
            // The store agrees with `EventFilter.matches`, which the live streams use.
            let everything = try s.all("ten_1")
            for filter in [EventFilter(bundleId: "com.even", typePrefix: "a"), EventFilter(deviceId: "dev_b", typePrefix: "a_b")] {
                #expect(try s.all("ten_1", filter) == everything.filter(filter.matches))
            }
        }
    }

    @Test func pagesFollowAfterIdOldestFirst() throws {
        try withStores { s throws in
            let events = (0..<7).map { event("e.\($0)") }
            _ = try s.devices.insert(makeDevice("dev_a", tenantId: "ten_1"), appending: events, recordedAt: wall)
            #expect(try s.events.events(tenantId: "ten_1", filter: EventFilter(), afterId: 0, limit: 3).map(\.id) == [1, 2, 3])
            #expect(try s.events.events(tenantId: "ten_1", filter: EventFilter(), afterId: 3, limit: 3).map(\.id) == [4, 5, 6])
            #expect(try s.events.events(tenantId: "ten_1", filter: EventFilter(), afterId: 6, limit: 3).map(\.id) == [7])
            #expect(try s.events.events(tenantId: "ten_1", filter: EventFilter(), afterId: 7, limit: 3).isEmpty)
            #expect(try s.events.events(tenantId: "ten_1", filter: EventFilter(), afterId: 0, limit: 0).count == 1)
            #expect(try s.all("ten_1", pageSize: 2).map(\.event.type.rawValue) == (0..<7).map { "e.\($0)" })
        }
    }

    @Test func newestFirstPagesGoBackFromTheNewestBetweenAfterAndBefore() throws {
        try withStores { s throws in
            let events = (0..<7).map { event("e.\($0)") }
            _ = try s.devices.insert(makeDevice("dev_a", tenantId: "ten_1"), appending: events, recordedAt: wall)
            func page(after: Int64 = 0, before: Int64? = nil, limit: Int = 3) throws -> [Int64] {
                try s.events.eventsNewestFirst(
                    tenantId: "ten_1", filter: EventFilter(), afterId: after, beforeId: before, limit: limit
                ).map(\.id)
            }
            #expect(try page() == [7, 6, 5])
            #expect(try page(before: 5) == [4, 3, 2])
            #expect(try page(before: 2) == [1])
            #expect(try page(before: 1).isEmpty)
            // `afterId` stays an exclusive lower bound, with or without an upper one.
            #expect(try page(after: 4) == [7, 6, 5])
            #expect(try page(after: 4, limit: 10) == [7, 6, 5])
            #expect(try page(after: 2, before: 6, limit: 10) == [5, 4, 3])
            #expect(try page(after: 5, before: 5).isEmpty)
            #expect(try page(limit: 0) == [7])
            // Walking back page by page sees every event once: the reverse of the oldest-first walk.
            var walked: [Int64] = []
            while true {
                let next = try page(before: walked.last, limit: 2)
                walked += next
                if next.count < 2 { break }
            }
            let oldestFirst = try s.all("ten_1").map(\.id)
            #expect(walked == oldestFirst.reversed())
        }
    }

    @Test func newestFirstPagesApplyTheFiltersAndTheTenant() throws {
        try withStores { s throws in
            let types = ["run.started", "app.stateChanged", "run.completed", "runaway.x"]
            for device in ["dev_a", "dev_b"] {
                let events = types.enumerated().map { index, type in
                    event(type, bundleId: index.isMultiple(of: 2) ? "com.even" : nil)
                }
                _ = try s.devices.insert(makeDevice(device, tenantId: "ten_1"), appending: events, recordedAt: wall)
            }
            _ = try s.devices.insert(makeDevice("dev_c", tenantId: "ten_2"), appending: [event("run.x")], recordedAt: wall)
            let everything = try s.all("ten_1")
            let filters = [
                EventFilter(), EventFilter(deviceId: "dev_b"), EventFilter(bundleId: "com.even"),
                EventFilter(typePrefix: "run."), EventFilter(deviceId: "dev_a", bundleId: "com.even", typePrefix: "run"),
                EventFilter(deviceId: "dev_c"),
            ]
            for filter in filters {
                let newestFirst = try s.events.eventsNewestFirst(
                    tenantId: "ten_1", filter: filter, afterId: 0, beforeId: nil, limit: 100)
                #expect(newestFirst == everything.filter(filter.matches).reversed())
            }
            let beforeLast = try s.events.eventsNewestFirst(
                tenantId: "ten_1", filter: EventFilter(deviceId: "dev_b", typePrefix: "run"), afterId: 0, beforeId: 8,
                limit: 100)
            #expect(beforeLast.map(\.event.type.rawValue) == ["run.completed", "run.started"])
            #expect(beforeLast.allSatisfy { $0.deviceId == "dev_b" })
        }
    }

    @Test func aRunsEventsAreTheOnesWhoseDataNamesItOnItsDevice() throws {
        try withStores { s throws in
            // The same run id on two devices and in another tenant: a run id is unique on its device only.
            for (device, tenant) in [("dev_a", "ten_1"), ("dev_b", "ten_1"), ("dev_c", "ten_2")] {
                let events = [
                    event("run.started", bundleId: "com.a", data: ["runId": "run_1", "kind": "appRefresh"]),
                    event("app.stateChanged", bundleId: "com.a", data: ["to": "background"]),
                    event("run.started", bundleId: "com.a", data: ["runId": "run_2"]),
                    event("run.completed", bundleId: "com.a", data: ["runId": "run_1", "result": "success"]),
                    event("transfer.completed", bundleId: "com.a", data: ["runId": 1]),   // not a string: not run_1
                ]
                _ = try s.devices.insert(makeDevice(device, tenantId: tenant), appending: events, recordedAt: wall)
            }
            let filter = EventFilter(deviceId: "dev_b", runId: "run_1")
            let run = try s.all("ten_1", filter)
            #expect(run.map(\.event.type.rawValue) == ["run.started", "run.completed"])
            #expect(run.allSatisfy { $0.deviceId == "dev_b" && $0.event.data["runId"] == "run_1" })
            #expect(run == (try s.all("ten_1")).filter(filter.matches), "the store and the live streams agree")
            let newestFirst = try s.events.eventsNewestFirst(
                tenantId: "ten_1", filter: filter, afterId: 0, beforeId: nil, limit: 100)
            #expect(newestFirst == run.reversed())
            #expect(try s.all("ten_2", filter).isEmpty)
            #expect(try s.all("ten_1", EventFilter(deviceId: "dev_a", runId: "run_9")).isEmpty)
        }
    }

    @Test(arguments: [
        EventFilter(), EventFilter(deviceId: "dev_a"), EventFilter(bundleId: "com.a"), EventFilter(typePrefix: "run."),
        EventFilter(deviceId: "dev_a", bundleId: "com.a", typePrefix: "run."), EventFilter(deviceId: "dev_a", runId: "run_1"),
        EventFilter(deviceId: "dev_a", bundleId: "com.a", typePrefix: "run.", runId: "run_1"),
    ])
    func everyPageWalksAnIndexWithoutSorting(_ filter: EventFilter) throws {
        try withStores { s throws in
            for newestFirst in [false, true] {
                for beforeId in [nil, Int64(500)] {
                    let (sql, arguments) = SQLiteEventStore.query(
                        tenantId: "ten_1", filter: filter, afterId: 0, beforeId: beforeId, newestFirst: newestFirst,
                        limit: 500)
                    let plan = try s.database.read { db throws in
                        try db.query("EXPLAIN QUERY PLAN " + sql, arguments) { row throws in try row.get(3, as: String.self) }
                    }.joined(separator: "; ")
                    let index = filter.runId != nil ? "events_by_run" : filter.deviceId == nil ? "events_by_tenant" : "events_by_device"
                    #expect(plan.contains("USING INDEX \(index)"), "\(sql): \(plan)")
                    #expect(!plan.contains("TEMP B-TREE"), "\(sql): \(plan)")
                }
            }
        }
    }

    @Test func tenantsSeeOnlyTheirOwnEventsAndTakeThemAlongWhenDeleted() throws {
        try withStores { s throws in
            _ = try s.devices.insert(makeDevice("dev_1", tenantId: "ten_1"), appending: [event("a"), event("b")], recordedAt: wall)
            _ = try s.devices.insert(makeDevice("dev_2", tenantId: "ten_2"), appending: [event("c")], recordedAt: wall)
            #expect(try s.all("ten_1").map(\.event.type.rawValue) == ["a", "b"])
            #expect(try s.all("ten_2").map(\.event.type.rawValue) == ["c"])
            // Filtering by another tenant's device finds nothing.
            #expect(try s.all("ten_2", EventFilter(deviceId: "dev_1")).isEmpty)

            // A deleted device's events stay; a deleted tenant's go.
            #expect(try s.devices.delete(id: "dev_1", tenantId: "ten_1"))
            #expect(try s.all("ten_1").count == 2)
            #expect(try s.tenants.deleteTenant(id: "ten_1"))
            #expect(try s.all("ten_1").isEmpty)
            #expect(try s.all("ten_2").count == 1)
            let remaining = try s.database.read { db throws in try db.scalar("SELECT count(*) FROM events", as: Int.self) }
            #expect(remaining == 1)
        }
    }

    @Test func realtimeDevicesAreFoundByTheirClockMode() throws {
        try withStores { s throws in
            var fast = makeDevice("dev_fast", tenantId: "ten_1")
            fast.clock = DeviceClock(mode: .realtime, scale: 60)
            try s.devices.insert(fast)
            try s.devices.insert(makeDevice("dev_manual", tenantId: "ten_2"))
            var later = makeDevice("dev_later", tenantId: "ten_2")
            _ = try s.devices.insert(later, appending: [], recordedAt: wall)
            #expect(try s.devices.realtimeDevices() == [fast])

            later.clock.mode = .realtime
            #expect(try s.devices.update(later, appending: [], recordedAt: wall) != nil)
            #expect(try s.devices.realtimeDevices().map(\.id) == ["dev_fast", "dev_later"])
            fast.clock.mode = .manual
            #expect(try s.devices.update(fast))
            #expect(try s.devices.realtimeDevices().map(\.id) == ["dev_later"])
            let plan = try s.database.read { db throws in
                try db.query("EXPLAIN QUERY PLAN SELECT document FROM devices WHERE clock_mode = 'realtime' ORDER BY seq") {
                    try $0.get(3, as: String.self)
                }
            }
            #expect(plan.joined().contains("devices_realtime"))
        }
    }

    @Test func migrationFillsTheClockModeOfExistingDevices() throws {
        try withTemporaryPath { path throws in
            var upTo002 = DatabaseMigrator()
            for migration in DatabaseMigrator.bgemu.migrations.prefix(2) {
                upTo002.registerMigration(migration.name, migration.body)
            }
            let database = try Database(path: path)
            defer { database.close() }
            try upTo002.migrate(database)
            let (tenant, key) = makeTenant(1)
            try SQLiteTenantStore(database: database).createTenant(tenant, firstKey: key)
            var realtime = makeDevice("dev_rt", tenantId: "ten_1")
            realtime.clock.mode = .realtime
            for device in [makeDevice("dev_m", tenantId: "ten_1"), realtime] {
                try database.write { db throws in
                    try db.execute(
                        "INSERT INTO devices (id, tenant_id, created_at, document) VALUES (?, ?, ?, ?)",
                        [device.id, device.tenantId, "2026-01-01T00:00:00.000Z", try SQLiteDeviceStore.encode(device)])
                }
            }
            #expect(try DatabaseMigrator.bgemu.migrate(database) == [
                "003_events", "004_events_by_run", "005_idempotency", "006_event_retention", "007_forecasts",
                "008_event_counts", "009_tenant_moves", "010_event_original_ids",
            ])
            #expect(try SQLiteDeviceStore(database: database).realtimeDevices() == [realtime])
        }
    }
}
