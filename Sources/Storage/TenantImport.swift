// One tenant's import: checks, renumbering of its event ids (each keeping the id its clients know), and every row
// inserted inside the caller's write.
import Emulation
import Foundation
import Stores

/// The import of one ``TenantExport`` inside a write transaction (``SQLiteTenantMoveStore/importTenant(_:)``).
struct TenantImport {
    let document: TenantExport
    /// The wall time of the import (a forecast it ends is finished then).
    let importedAt: Date
    let db: SQLiteConnection

    func run() throws -> ImportedTenant {
        try check()
        if try db.scalar("SELECT count(*) FROM tenants WHERE id = ?", [document.tenantId], as: Int.self) != 0 {
            throw StoreError.duplicate("tenant id")
        }
        // The tenant's points (see `EventIdMoves`): its events' ids and its watermarks, sorted, each once.
        var points = Set(try integers("events", "id"))
        points.formUnion(try integers("event_watermarks", "pruned_through").filter { $0 > 0 })
        points.formUnion(try integers("tenant_event_watermarks", "pruned_through").filter { $0 > 0 })
        let sorted = points.sorted()
        let here = try db.scalar(SQLiteTenantMoveStore.latestEventId, as: Int64.self) ?? 0
        let start = max(here, document.sourceLatestEventId) + 1
        let runs = EventIdMoves.runs(points: sorted, start: start)
        var newIds: [Int64: Int64] = [:]
        newIds.reserveCapacity(sorted.count)
        for (index, point) in sorted.enumerated() { newIds[point] = start + Int64(index) }

        var counts: [String: Int] = [:]
        for moved in TenantTables.moved {
            guard let table = document.table(moved.name) else { continue }
            let renumbered: String? = switch moved.name {
            case "events": "id"
            case "event_watermarks", "tenant_event_watermarks": "pruned_through"
            default: nil
            }
            // An event keeps the id its tenant's clients know it by as `original_id` (the one it had where it was
            // first recorded), a column that a source older than migration 010 does not send.
            var columns = table.columns
            var rows = table.rows
            if moved.name == "events", !columns.contains("original_id") {
                columns.append("original_id")
                rows = rows.map { $0 + [.null] }
            }
            let originalIndex = moved.name == "events" ? columns.firstIndex(of: "original_id") : nil
            let sql = "INSERT INTO \(TenantTables.quoted(moved.name)) ("
                + columns.map(TenantTables.quoted).joined(separator: ", ") + ") VALUES ("
                + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            let insert = try db.makeStatement(sql)
            let renumberedIndex = renumbered.flatMap { columns.firstIndex(of: $0) }
            for row in rows {
                var values: SQLiteArguments = row.map { SQLiteTenantMoveStore.stored($0) }
                if let index = renumberedIndex, case .integer(let old) = row[index], let new = newIds[old] {
                    values[index] = new
                    if let originalIndex, row[originalIndex] == .null { values[originalIndex] = old }
                }
                try insert.execute(values)
            }
            counts[moved.name] = table.rows.count
        }
        // A forecast that was running on the source is not carried over: its run stays there and ends with the
        // tenant's deletion, so here it is failed, as a restart fails one (the client creates it again).
        _ = try SQLiteForecastStore.failRunning(.tenantMoved, at: importedAt, tenantId: document.tenantId, db)
        // This move's generation of the id map, then the log's sequence past every id the import took.
        for run in runs {
            try db.execute(
                "INSERT OR IGNORE INTO event_id_moves (tenant_id, through, old_start, new_start, length) VALUES (?, ?, ?, ?, ?)",
                [document.tenantId, document.sourceLatestEventId, run.oldStart, run.newStart, run.length])
        }
        let last = start - 1 + Int64(sorted.count)
        if last > here {
            try db.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'events'", [last])
            if db.changes == 0 { try db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('events', ?)", [last]) }
        }
        return ImportedTenant(
            tenantId: document.tenantId, rows: counts, eventIds: last > here ? (here + 1)...last : nil)
    }

    /// The document fits this database: its format, its migrations, its tables and columns, each row's width, and
    /// every row of the one tenant it names.
    private func check() throws {
        guard document.format == TenantExport.formatName, document.version == TenantExport.currentVersion else {
            throw TenantImportFailure.unknownFormat(
                "a \(TenantExport.formatName) document of version \(TenantExport.currentVersion) is expected, not "
                    + "\"\(document.format)\" version \(document.version)")
        }
        let applied = Set(try db.query("SELECT name FROM schema_migrations") { row -> String in try row[0] })
        let missing = document.schema.filter { !applied.contains($0) }
        guard missing.isEmpty else { throw TenantImportFailure.newerSchema(missing) }
        guard document.sourceLatestEventId >= 0 else { throw TenantImportFailure.invalid("sourceLatestEventId is negative") }
        var seen: Set<String> = []
        for table in document.tables {
            guard let moved = TenantTables.moved(table.name) else {
                throw TenantImportFailure.invalid("\"\(table.name)\" is not a table a tenant's move carries")
            }
            guard seen.insert(table.name).inserted else { throw TenantImportFailure.invalid("table \"\(table.name)\" twice") }
            let known = Set(try TenantTables.columns(of: table.name, db)).subtracting(moved.skipped)
            if let unknown = table.columns.first(where: { !known.contains($0) }) {
                throw TenantImportFailure.invalid("table \"\(table.name)\" has no column \"\(unknown)\" here")
            }
            guard Set(table.columns).count == table.columns.count else {
                throw TenantImportFailure.invalid("table \"\(table.name)\" names a column twice")
            }
            guard let tenantIndex = table.columns.firstIndex(of: moved.tenantColumn) else {
                throw TenantImportFailure.invalid("table \"\(table.name)\" has no \"\(moved.tenantColumn)\" column")
            }
            for row in table.rows {
                guard row.count == table.columns.count else {
                    throw TenantImportFailure.invalid("a row of \"\(table.name)\" has \(row.count) values for \(table.columns.count) columns")
                }
                guard row[tenantIndex] == .text(document.tenantId) else {
                    throw TenantImportFailure.invalid("a row of \"\(table.name)\" belongs to another tenant than \(document.tenantId)")
                }
            }
        }
        guard document.table("tenants")?.rows.count == 1 else {
            throw TenantImportFailure.invalid("the document must hold the tenant's row in \"tenants\", once")
        }
    }

    /// The integers of `column` in the document's `table`.
    private func integers(_ table: String, _ column: String) throws -> [Int64] {
        guard let table = document.table(table), let index = table.columns.firstIndex(of: column) else { return [] }
        return try table.rows.map { row in
            guard case .integer(let value) = row[index] else {
                throw TenantImportFailure.invalid("\(table.name).\(column) must be an integer")
            }
            return value
        }
    }
}
