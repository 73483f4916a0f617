// Tenants, their API keys and the service's settings, in SQLite.
import Emulation
import Foundation
import Stores

/// ``TenantStore`` on a ``Database``: tables `tenants`, `api_keys`, `settings`.
public struct SQLiteTenantStore: TenantStore {
    public let database: Database

    public init(database: Database) {
        self.database = database
    }

    private static let tenantColumns = "tenants.seq, tenants.id, tenants.name, tenants.created_at"
    private static let keyColumns =
        "api_keys.id, api_keys.tenant_id, api_keys.hash, api_keys.prefix, api_keys.created_at, api_keys.revoked_at"

    public func createTenant(_ tenant: Tenant, firstKey: APIKeyRecord) throws {
        try StoreFailure.mapping {
            try database.write { db in
                try db.execute(
                    "INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)",
                    [tenant.id, tenant.name, StorageDate.text(tenant.createdAt)])
                try Self.insert(firstKey, db)
            }
        }
    }

    public func tenant(id: String) throws -> Tenant? {
        try StoreFailure.mapping {
            try database.read { db in
                try db.queryFirst("SELECT \(Self.tenantColumns) FROM tenants WHERE id = ?", [id]) { try Self.tenant($0) }
            }
        }
    }

    public func tenant(named name: String) throws -> Tenant? {
        try StoreFailure.mapping {
            try database.read { db in
                try db.queryFirst("SELECT \(Self.tenantColumns) FROM tenants WHERE name = ?", [name]) { try Self.tenant($0) }
            }
        }
    }

    public func tenants(after cursor: String?, limit: Int) throws -> Page<Tenant> {
        let after = try cursor.map { try PageCursor.decode($0, list: "tenants").seq } ?? 0
        let limit = PageCursor.pageSize(limit)
        return try StoreFailure.mapping {
            let rows = try database.read { db in
                try db.query(
                    "SELECT \(Self.tenantColumns) FROM tenants WHERE seq > ? ORDER BY seq LIMIT ?", [after, limit + 1]
                ) { row in (seq: try row.get(0, as: Int64.self), item: try Self.tenant(row)) }
            }
            return PageCursor.page(rows, limit: limit, list: "tenants")
        }
    }

    public func deleteTenant(id: String) throws -> Bool {
        try StoreFailure.mapping {
            try database.write { db in
                try db.execute("DELETE FROM tenants WHERE id = ?", [id])  // keys and devices: ON DELETE CASCADE
                return db.changes > 0
            }
        }
    }

    public func addKey(_ key: APIKeyRecord) throws {
        try StoreFailure.mapping {
            try database.write { db in try Self.insert(key, db) }
        }
    }

    public func keys(tenantId: String) throws -> [APIKeyRecord] {
        try StoreFailure.mapping {
            try database.read { db in
                try db.query("SELECT \(Self.keyColumns) FROM api_keys WHERE tenant_id = ? ORDER BY seq", [tenantId]) {
                    try Self.key($0)
                }
            }
        }
    }

    public func revokeKey(tenantId: String, keyId: String, at date: Date) throws -> Bool {
        try StoreFailure.mapping {
            try database.write { db in
                try db.execute(
                    "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND tenant_id = ? AND revoked_at IS NULL",
                    [StorageDate.text(date), keyId, tenantId])
                return db.changes > 0
            }
        }
    }

    public func activeKey(hash: String) throws -> (key: APIKeyRecord, tenant: Tenant)? {
        try StoreFailure.mapping {
            try database.read { db in
                try db.queryFirst(
                    """
                    SELECT \(Self.keyColumns), \(Self.tenantColumns)
                    FROM api_keys JOIN tenants ON tenants.id = api_keys.tenant_id
                    WHERE api_keys.hash = ? AND api_keys.revoked_at IS NULL
                    """, [hash]
                ) { row in (key: try Self.key(row), tenant: try Self.tenant(row, from: 6)) }
            }
        }
    }

    public func setting(_ name: String) throws -> String? {
        try StoreFailure.mapping {
            try database.read { db in try db.scalar("SELECT value FROM settings WHERE name = ?", [name], as: String.self) }
        }
    }

    public func setSetting(_ name: String, value: String) throws {
        try StoreFailure.mapping {
            try database.write { db in
                try db.execute(
                    "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                    [name, value])
            }
        }
    }

    // MARK: Rows

    private static func insert(_ key: APIKeyRecord, _ db: SQLiteConnection) throws {
        try db.execute(
            "INSERT INTO api_keys (id, tenant_id, hash, prefix, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)",
            [key.id, key.tenantId, key.hash, key.prefix, StorageDate.text(key.createdAt), key.revokedAt.map(StorageDate.text)])
    }

    /// A tenant from `tenantColumns` starting at column `first`.
    private static func tenant(_ row: SQLiteRow, from first: Int = 0) throws -> Tenant {
        Tenant(id: try row[first + 1], name: try row[first + 2], createdAt: try StorageDate.read(row, first + 3))
    }

    private static func key(_ row: SQLiteRow) throws -> APIKeyRecord {
        APIKeyRecord(
            id: try row[0], tenantId: try row[1], hash: try row[2], prefix: try row[3],
            createdAt: try StorageDate.read(row, 4), revokedAt: try StorageDate.readOptional(row, 5))
    }
}
