// A tenant's rows out of one shard's database and into another's, and the fence on its writes.
import Foundation
import Stores

/// ``TenantMoveStore`` on a ``Database``: the tables of ``TenantTables``, `tenant_fences` and `event_id_moves`.
public struct SQLiteTenantMoveStore: TenantMoveStore {
    public let database: Database
    let wallClock: @Sendable () -> Date

    public init(database: Database, wallClock: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.wallClock = wallClock
    }

    /// The greatest id the events' `AUTOINCREMENT` handed out (0: none).
    static let latestEventId = "SELECT seq FROM sqlite_sequence WHERE name = 'events'"

    public func export(tenantId: String) throws -> TenantExport? {
        try StoreFailure.mapping {
            try database.read { db -> TenantExport? in
                try db.transaction(.deferred) {  // one snapshot of every table
                    guard try db.scalar("SELECT count(*) FROM tenants WHERE id = ?", [tenantId], as: Int.self) == 1 else {
                        return nil
                    }
                    var tables: [TenantExport.Table] = []
                    for table in TenantTables.moved {
                        let columns = try TenantTables.columns(of: table.name, db).filter { !table.skipped.contains($0) }
                        let sql = "SELECT \(columns.map(TenantTables.quoted).joined(separator: ", ")) FROM "
                            + "\(TenantTables.quoted(table.name)) WHERE \(TenantTables.quoted(table.tenantColumn)) = ? "
                            + "ORDER BY \(table.order)"
                        // Not cached: one statement per table per export.
                        let statement = try db.makeStatement(sql)
                        let rows = try statement.query([tenantId]) { row in
                            (0..<columns.count).map { Self.exported(row.value(at: $0)) }
                        }
                        tables.append(TenantExport.Table(name: table.name, columns: columns, rows: rows))
                    }
                    let schema: [String] = try db.query("SELECT name FROM schema_migrations ORDER BY rowid") { try $0[0] }
                    let latest = try db.scalar(Self.latestEventId, as: Int64.self) ?? 0
                    return TenantExport(tenantId: tenantId, schema: schema, sourceLatestEventId: latest, tables: tables)
                }
            }
        }
    }

    public func exportSize(tenantId: String) throws -> Int? {
        try StoreFailure.mapping {
            try database.read { db -> Int? in
                guard try db.scalar("SELECT count(*) FROM tenants WHERE id = ?", [tenantId], as: Int.self) == 1 else {
                    return nil
                }
                // The document's own fields (format, version, the migrations' names), then each table's name and
                // columns, each row's brackets and each value.
                let migrations: [String] = try db.query("SELECT name FROM schema_migrations") { try $0[0] }
                var total = 100 + migrations.reduce(0) { $0 + $1.utf8.count + 3 }
                for table in TenantTables.moved {
                    let columns = try TenantTables.columns(of: table.name, db).filter { !table.skipped.contains($0) }
                    total += 40 + table.name.utf8.count + columns.reduce(0) { $0 + $1.utf8.count + 3 }
                    let sql = "SELECT ifnull(sum(3 + " + columns.map(Self.exportedSize).joined(separator: " + ")
                        + "), 0) FROM \(TenantTables.quoted(table.name)) WHERE \(TenantTables.quoted(table.tenantColumn)) = ?"
                    total += try db.makeStatement(sql).query([tenantId]) { try $0.get(0, as: Int.self) }.first ?? 0
                }
                return total
            }
        }
    }

    /// The SQL of about how many bytes `column`'s value takes in the export's JSON, with its punctuation: a text's
    /// bytes and one more for each `"` and `\\` (escaped), a blob's base64 in its object, a number's digits.
    private static func exportedSize(_ column: String) -> String {
        let value = TenantTables.quoted(column)
        let escapes = "(length(\(value)) - length(replace(replace(\(value), '\"', ''), '\\', '')))"
        return "(CASE typeof(\(value)) WHEN 'text' THEN length(CAST(\(value) AS BLOB)) + \(escapes) + 3 "
            + "WHEN 'blob' THEN (length(\(value)) + 2) / 3 * 4 + 14 WHEN 'null' THEN 5 "
            + "WHEN 'real' THEN length(CAST(\(value) AS TEXT)) + 11 ELSE length(CAST(\(value) AS TEXT)) + 1 END)"
    }

    public func importTenant(_ document: TenantExport) throws -> ImportedTenant {
        try StoreFailure.mapping {
            try database.write { db in try TenantImport(document: document, importedAt: wallClock(), db: db).run() }
        }
    }

    public func fence(tenantId: String) throws -> Bool {
        try StoreFailure.mapping {
            try database.write { db in
                guard try db.scalar("SELECT count(*) FROM tenants WHERE id = ?", [tenantId], as: Int.self) == 1 else {
                    return false
                }
                try db.execute(
                    "INSERT OR IGNORE INTO tenant_fences (tenant_id, fenced_at) VALUES (?, ?)",
                    [tenantId, StorageDate.text(wallClock())])
                return true
            }
        }
    }

    public func unfence(tenantId: String) throws -> Bool {
        try StoreFailure.mapping {
            try database.write { db in
                try db.execute("DELETE FROM tenant_fences WHERE tenant_id = ?", [tenantId])
                return try db.scalar("SELECT count(*) FROM tenants WHERE id = ?", [tenantId], as: Int.self) == 1
            }
        }
    }

    public func fencedTenants() throws -> [String] {
        try StoreFailure.mapping {
            try database.read { db in try db.query("SELECT tenant_id FROM tenant_fences ORDER BY tenant_id") { try $0[0] } }
        }
    }

    public func eventIdAfterMoves(_ id: Int64, tenantId: String) throws -> Int64 {
        try StoreFailure.mapping {
            try database.read { db in try EventIdMoves.translate(id, tenantId: tenantId, db) }
        }
    }

    public func originalEventId(_ id: Int64, tenantId: String) throws -> Int64 {
        try StoreFailure.mapping {
            try database.read { db in try EventIdMoves.original(id, tenantId: tenantId, db) }
        }
    }

    static func exported(_ value: SQLiteValue) -> TenantExport.Value {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): .text(text)
        case .blob(let bytes): .blob(bytes)
        }
    }

    static func stored(_ value: TenantExport.Value) -> SQLiteValue {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): .text(text)
        case .blob(let bytes): .blob(bytes)
        }
    }
}
