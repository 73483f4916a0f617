import Emulation
import Foundation
import Testing
@testable import Storage
import Stores

@Suite struct SQLiteTenantStoreTests {
    @Test func createdTenantIsFoundByIdAndName() throws {
        try withDatabase { database throws in
            let store = SQLiteTenantStore(database: database)
            let (tenant, key) = makeTenant(1)
            try store.createTenant(tenant, firstKey: key)
            #expect(try store.tenant(id: tenant.id) == tenant)
            #expect(try store.tenant(named: tenant.name) == tenant)
            #expect(try store.tenant(id: "nope") == nil)
            #expect(try store.tenant(named: "nope") == nil)
            #expect(try store.keys(tenantId: tenant.id) == [key])
        }
    }

    @Test func tenantsArePagedInCreationOrder() throws {
        try withDatabase { database throws in
            let store = SQLiteTenantStore(database: database)
            // Names in reverse alphabetical order: the order is creation, not name or id.
            for n in [5, 4, 3, 2, 1] {
                let (tenant, key) = makeTenant(n)
                try store.createTenant(tenant, firstKey: key)
            }
            let first = try store.tenants(after: nil, limit: 2)
            #expect(first.items.map(\.id) == ["ten_5", "ten_4"])
            let cursor1 = try #require(first.nextCursor)
            let second = try store.tenants(after: cursor1, limit: 2)
            #expect(second.items.map(\.id) == ["ten_3", "ten_2"])
            let cursor2 = try #require(second.nextCursor)
            let third = try store.tenants(after: cursor2, limit: 2)
            #expect(third.items.map(\.id) == ["ten_1"])
            #expect(third.nextCursor == nil)

            // Stable: the same cursor gives the same page, and still works after its tenant is deleted.
            #expect(try store.tenants(after: cursor1, limit: 2).items.map(\.id) == ["ten_3", "ten_2"])
            #expect(try store.deleteTenant(id: "ten_4"))
            #expect(try store.tenants(after: cursor1, limit: 2).items.map(\.id) == ["ten_3", "ten_2"])
            #expect(!cursor1.contains("4"))  // opaque, not the seq in clear
        }
    }

    @Test func lastFullPageHasNoNextCursor() throws {
        try withDatabase { database throws in
            let store = SQLiteTenantStore(database: database)
            for n in 1...4 {
                let (tenant, key) = makeTenant(n)
                try store.createTenant(tenant, firstKey: key)
            }
            let first = try store.tenants(after: nil, limit: 2)
            let cursor: String = try #require(first.nextCursor)
            let second = try store.tenants(after: cursor, limit: 2)
            #expect(second.items.count == 2)
            #expect(second.nextCursor == nil)
            #expect(try store.tenants(after: nil, limit: 10).nextCursor == nil)
        }
    }

    // Not base64url, empty, "tenants:10" padded, "tenants:-1", "devices:1", "tenants:1\0", "tenants:01".
    @Test(arguments: ["garbage!", "", "dGVuYW50czoxMA==", "dGVuYW50czotMQ", "ZGV2aWNlczox", "dGVuYW50czoxAA", "dGVuYW50czowMQ"])
    func invalidCursorIsRefused(cursor: String) throws {
        try withDatabase { database throws in
            let store = SQLiteTenantStore(database: database)
            #expect(throws: StoreError.invalidCursor) { try store.tenants(after: cursor, limit: 2) }
        }
    }

    @Test func duplicateTenantNameIsRefusedAtomically() throws {
        try withDatabase { database throws in
            let store = SQLiteTenantStore(database: database)
            let (tenant, key) = makeTenant(1)
            try store.createTenant(tenant, firstKey: key)
            var (other, otherKey) = makeTenant(2)
            other.name = tenant.name
            #expect(throws: StoreError.duplicate("tenant name")) { try store.createTenant(other, firstKey: otherKey) }
            #expect(try store.tenant(id: other.id) == nil)
            #expect(try store.keys(tenantId: other.id) == [])

            // A duplicate first key leaves no tenant behind either.
            (other, otherKey) = makeTenant(3)
            otherKey.hash = key.hash
            #expect(throws: StoreError.duplicate("key hash")) { try store.createTenant(other, firstKey: otherKey) }
            #expect(try store.tenant(id: other.id) == nil)
        }
    }

    @Test func keysAreAddedRevokedAndLookedUp() throws {
        try withDatabase { database throws in
            let store = SQLiteTenantStore(database: database)
            let (tenant, first) = makeTenant(1)
            try store.createTenant(tenant, firstKey: first)
            let second = APIKeyRecord(
                id: "key_b", tenantId: tenant.id, hash: "hash-b", prefix: "bg_b", createdAt: date(1_767_225_700_000))
            try store.addKey(second)
            #expect(try store.keys(tenantId: tenant.id) == [first, second])

            let found = try #require(try store.activeKey(hash: "hash-b"))
            #expect(found.key == second)
            #expect(found.tenant == tenant)

            let revokedAt = date(1_767_225_800_456)
            #expect(try store.revokeKey(tenantId: tenant.id, keyId: second.id, at: revokedAt))
            #expect(try !store.revokeKey(tenantId: tenant.id, keyId: second.id, at: revokedAt))  // already revoked
            #expect(try !store.revokeKey(tenantId: "ten_other", keyId: first.id, at: revokedAt))  // not that tenant's
            #expect(try !store.revokeKey(tenantId: tenant.id, keyId: "nope", at: revokedAt))
            #expect(try store.activeKey(hash: "hash-b") == nil)
            #expect(try store.activeKey(hash: first.hash)?.key == first)
            #expect(try store.activeKey(hash: "nope") == nil)

            var revoked = second
            revoked.revokedAt = revokedAt
            #expect(try store.keys(tenantId: tenant.id) == [first, revoked])
        }
    }

    @Test func duplicateKeysAreRefused() throws {
        try withDatabase { database throws in
            let store = SQLiteTenantStore(database: database)
            let (tenant, key) = makeTenant(1)
            try store.createTenant(tenant, firstKey: key)
            var sameHash = key
            sameHash.id = "key_other"
            #expect(throws: StoreError.duplicate("key hash")) { try store.addKey(sameHash) }
            var sameId = key
            sameId.hash = "other-hash"
            #expect(throws: StoreError.duplicate("key id")) { try store.addKey(sameId) }
        }
    }

    @Test func deletingATenantDeletesItsKeysAndDevices() throws {
        try withDatabase { database throws in
            let tenants = SQLiteTenantStore(database: database)
            let devices = SQLiteDeviceStore(database: database)
            let (doomed, doomedKey) = makeTenant(1)
            let (kept, keptKey) = makeTenant(2)
            try tenants.createTenant(doomed, firstKey: doomedKey)
            try tenants.createTenant(kept, firstKey: keptKey)
            try devices.insert(makeDevice("dev_1", tenantId: doomed.id))
            try devices.insert(makeDevice("dev_2", tenantId: kept.id))

            #expect(try tenants.deleteTenant(id: doomed.id))
            #expect(try !tenants.deleteTenant(id: doomed.id))
            #expect(try tenants.tenant(id: doomed.id) == nil)
            #expect(try tenants.keys(tenantId: doomed.id) == [])
            #expect(try tenants.activeKey(hash: doomedKey.hash) == nil)
            #expect(try devices.device(id: "dev_1", tenantId: doomed.id) == nil)
            let remaining = try database.read { db throws in
                (try db.scalar("SELECT count(*) FROM api_keys", as: Int.self), try db.scalar("SELECT count(*) FROM devices", as: Int.self))
            }
            #expect(remaining.0 == 1 && remaining.1 == 1)
            #expect(try devices.device(id: "dev_2", tenantId: kept.id) != nil)
        }
    }

    @Test func settingsAreSetAndReplaced() throws {
        try withDatabase { database throws in
            let store = SQLiteTenantStore(database: database)
            #expect(try store.setting("admin_token_hash") == nil)
            try store.setSetting("admin_token_hash", value: "one")
            try store.setSetting("admin_token_hash", value: "two")
            #expect(try store.setting("admin_token_hash") == "two")
        }
    }

    @Test func datesAreStoredAsRFC3339WithMilliseconds() throws {
        try withDatabase { database throws in
            let store = SQLiteTenantStore(database: database)
            let (tenant, key) = makeTenant(7)
            try store.createTenant(tenant, firstKey: key)
            let stored = try database.read { db throws in
                try db.scalar("SELECT created_at FROM tenants", as: String.self)
            }
            #expect(stored == "2026-01-01T00:00:00.007Z")
        }
    }

    @Test func unreachableDatabaseIsUnavailable() {
        #expect(throws: StoreError.unavailable("database is locked")) {
            try StoreFailure.mapping { throw SQLiteError(extendedResultCode: SQLiteError.Code.busy.rawValue) }
        }
        // A misuse of the API is a defect, not the database's state: it passes through.
        #expect(throws: SQLiteError.self) {
            try StoreFailure.mapping { throw SQLiteError(extendedResultCode: SQLiteError.Code.misuse.rawValue) }
        }
    }

    @Test func damagedDatabaseFileIsUnavailable() throws {
        try withTemporaryPath { path throws in
            var schemaPages: Set<Int> = [1]
            do {
                let database = try openDatabase(path: path)
                let store = SQLiteTenantStore(database: database)
                for n in 1...50 {
                    let (tenant, key) = makeTenant(n)
                    try store.createTenant(tenant, firstKey: key)
                }
                try database.writeWithoutTransaction { db throws in try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
                // The schema's pages (the first, and more once the schema outgrows it), which stay whole.
                schemaPages = Set(try database.read { db throws in
                    try db.query("SELECT pageno FROM dbstat WHERE name = 'sqlite_schema'") { try $0.get(0, as: Int.self) }
                })
                database.close()
            }
            // Every page but the schema's overwritten with garbage, as a failing disk might.
            let file = try #require(FileHandle(forUpdatingAtPath: path))
            let size = try file.seekToEnd()
            #expect(size > 4096)
            for page in 1...Int(size / 4096) where !schemaPages.contains(page) {
                try file.seek(toOffset: UInt64(page - 1) * 4096)
                try file.write(contentsOf: Data(repeating: 0xA5, count: 4096))
            }
            try file.close()

            let database = try Database(path: path)   // opened without the migrator, which would read a damaged table
            defer { database.close() }
            #expect {
                _ = try SQLiteTenantStore(database: database).tenants(after: nil, limit: 50)
            } throws: { error in
                guard case StoreError.unavailable = error else { return false }
                return true
            }
        }
    }
}
