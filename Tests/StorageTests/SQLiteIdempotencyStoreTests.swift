import Emulation
import Foundation
import Testing
@testable import Storage
import Stores

/// The stored answers to requests with an `Idempotency-Key`: one transaction with the write they describe.
@Suite struct SQLiteIdempotencyStoreTests {
    struct Failure: Error {}

    private let wall = date(1_767_225_700_123)

    private func answer(status: Int = 200, at created: Date) -> StoredAnswer {
        StoredAnswer(
            fingerprint: .init(method: "POST", path: "/v1/devices/dev_a/clock/advance", bodySHA256: "abc"),
            status: status, headers: [["Content-Type", "application/json"], ["Location", "/x"]],
            body: Array(#"{"now":"2026-01-01T00:01:00.000Z"}"#.utf8), createdAt: created)
    }

    private func withStores(_ body: (SQLiteIdempotencyStore, SQLiteDeviceStore, Database) throws -> Void) throws {
        try withDatabase { database throws in
            let (tenant, key) = makeTenant(1)
            try SQLiteTenantStore(database: database).createTenant(tenant, firstKey: key)
            let devices = SQLiteDeviceStore(database: database)
            try devices.insert(makeDevice("dev_a", tenantId: "ten_1"))
            try body(SQLiteIdempotencyStore(database: database), devices, database)
        }
    }

    private func events(_ database: Database) throws -> Int {
        try database.read { try $0.scalar("SELECT count(*) FROM events", as: Int.self) } ?? 0
    }

    private let advanced = EmulationEvent(type: EventType("clock.advanced"), bundleId: nil, at: VirtualInstant(milliseconds: 60_000), data: [:])

    @Test func theAnswerCommitsWithTheWriteItDescribes() throws {
        try withStores { store, devices, database throws in
            var device = makeDevice("dev_a", tenantId: "ten_1")
            device.name = "renamed"
            try store.transaction {
                _ = try devices.update(device, appending: [advanced], recordedAt: wall)
                try store.save(answer(at: wall), tenantId: "ten_1", key: "k", expiringBefore: wall.addingTimeInterval(-86_400))
            }
            #expect(try devices.device(id: "dev_a", tenantId: "ten_1")?.name == "renamed")
            #expect(try events(database) == 1)
            #expect(try store.answer(tenantId: "ten_1", key: "k", notBefore: wall.addingTimeInterval(-86_400)) == answer(at: wall))
        }
    }

    @Test func whenTheTransactionFailsNeitherTheWriteNorTheAnswerRemains() throws {
        try withStores { store, devices, database throws in
            var device = makeDevice("dev_a", tenantId: "ten_1")
            device.name = "renamed"
            #expect(throws: Failure.self) {
                try store.transaction {
                    _ = try devices.update(device, appending: [advanced], recordedAt: wall)
                    try store.save(answer(at: wall), tenantId: "ten_1", key: "k", expiringBefore: wall.addingTimeInterval(-86_400))
                    throw Failure()  // e.g. the process dies before COMMIT
                }
            }
            #expect(try devices.device(id: "dev_a", tenantId: "ten_1")?.name == "Device dev_a")
            #expect(try events(database) == 0)
            #expect(try store.answer(tenantId: "ten_1", key: "k", notBefore: .distantPast) == nil)
        }
    }

    @Test func answersAreKeptPerTenantIgnoredWhenExpiredAndPrunedInBatches() throws {
        try withStores { store, _, database throws in
            let (tenant, key) = makeTenant(2)
            try SQLiteTenantStore(database: database).createTenant(tenant, firstKey: key)
            let old = wall.addingTimeInterval(-90_000)
            let count = SQLiteIdempotencyStore.pruneBatch + 10
            try store.transaction {
                for n in 0..<count {
                    try store.save(answer(at: old), tenantId: "ten_1", key: "old\(n)", expiringBefore: .distantPast)
                }
            }
            #expect(try store.answer(tenantId: "ten_1", key: "old0", notBefore: wall.addingTimeInterval(-86_400)) == nil)
            try store.transaction {
                try store.save(answer(at: wall), tenantId: "ten_2", key: "old0", expiringBefore: wall.addingTimeInterval(-86_400))
            }
            #expect(try store.count() == count - SQLiteIdempotencyStore.pruneBatch + 1)  // one bounded batch pruned
            #expect(try store.answer(tenantId: "ten_2", key: "old0", notBefore: wall.addingTimeInterval(-86_400)) != nil)
            #expect(try store.answer(tenantId: "ten_1", key: "old0", notBefore: .distantPast) == nil)  // pruned, oldest first
        }
    }
}
