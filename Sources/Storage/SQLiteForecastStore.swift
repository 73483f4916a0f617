// The tenants' forecasts: one row each, the result and CSV beside the request.
import CompactJSON
import Emulation
import Foundation
import Stores

/// ``ForecastStore`` on a ``Database``: table `forecasts` (migration `007_forecasts`).
public struct SQLiteForecastStore: ForecastStore {
    public let database: Database

    public init(database: Database) {
        self.database = database
    }

    private static let columns =
        "id, tenant_id, state, progress, request, error, devices_per_second, created_at, finished_at"

    public func insert(_ forecast: ForecastRecord, keepingAtMost limit: Int) throws {
        let request = try Self.json(forecast.request)
        try StoreFailure.mapping {
            try database.write { db in
                try db.execute(
                    """
                    INSERT INTO forecasts (id, tenant_id, state, progress, request, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [forecast.id, forecast.tenantId, forecast.state.rawValue, forecast.progress, request,
                     StorageDate.text(forecast.createdAt)])
                // The oldest finished ones past the limit (a running one is never dropped for a new one).
                let count = try db.scalar("SELECT count(*) FROM forecasts WHERE tenant_id = ?", [forecast.tenantId], as: Int.self) ?? 0
                if count > limit {
                    try db.execute(
                        """
                        DELETE FROM forecasts WHERE rowid IN (SELECT rowid FROM forecasts
                            WHERE tenant_id = ? AND state != 'running' ORDER BY rowid LIMIT ?)
                        """,
                        [forecast.tenantId, count - limit])
                }
            }
        }
    }

    public func updateProgress(tenantId: String, id: String, progress: Double) throws {
        try StoreFailure.mapping {
            try database.write { db in
                try db.execute(
                    "UPDATE forecasts SET progress = ? WHERE tenant_id = ? AND id = ? AND state = 'running'",
                    [progress, tenantId, id])
            }
        }
    }

    @discardableResult
    public func finish(_ forecast: ForecastRecord, csv: String?) throws -> Bool {
        let result = try forecast.result.map(Self.json)
        let error = try forecast.failure.map(Self.json)
        return try StoreFailure.mapping {
            try database.write { db in
                try db.execute(
                    """
                    UPDATE forecasts SET state = ?, progress = ?, result = ?, csv = ?, error = ?, devices_per_second = ?,
                        finished_at = ?
                    WHERE tenant_id = ? AND id = ?
                    """,
                    [forecast.state.rawValue, forecast.progress, result, csv, error, forecast.devicesPerSecond,
                     forecast.finishedAt.map(StorageDate.text), forecast.tenantId, forecast.id])
                return db.changes > 0
            }
        }
    }

    public func forecast(tenantId: String, id: String) throws -> ForecastRecord? {
        try StoreFailure.mapping {
            try database.read { db in
                try db.queryFirst(
                    "SELECT \(Self.columns), result FROM forecasts WHERE tenant_id = ? AND id = ?", [tenantId, id]
                ) { row in
                    var forecast = try Self.record(row)
                    let result: String? = try row.get(9)
                    forecast.result = try result.map { try JSONDecoder().decode(ForecastResult.self, from: Data($0.utf8)) }
                    return forecast
                }
            }
        }
    }

    public func forecasts(tenantId: String) throws -> [ForecastRecord] {
        try StoreFailure.mapping {
            try database.read { db in
                try db.query(
                    "SELECT \(Self.columns) FROM forecasts WHERE tenant_id = ? ORDER BY rowid DESC", [tenantId], Self.record)
            }
        }
    }

    public func csv(tenantId: String, id: String) throws -> String? {
        try StoreFailure.mapping {
            try database.read { db in
                try db.queryFirst("SELECT csv FROM forecasts WHERE tenant_id = ? AND id = ?", [tenantId, id]) { row in
                    try row.get(0, as: String?.self)
                } ?? nil
            }
        }
    }

    public func delete(tenantId: String, id: String) throws -> Bool {
        try StoreFailure.mapping {
            try database.write { db in
                try db.execute("DELETE FROM forecasts WHERE tenant_id = ? AND id = ?", [tenantId, id])
                return db.changes > 0
            }
        }
    }

    @discardableResult
    public func failRunning(_ failure: ForecastFailure, at date: Date) throws -> Int {
        try StoreFailure.mapping {
            try database.write { db in try Self.failRunning(failure, at: date, db) }
        }
    }

    /// Fails the forecasts still running — of `tenantId`, or of every tenant — inside the caller's write (a restart,
    /// or a tenant's import: neither carries a run over); answers how many.
    static func failRunning(
        _ failure: ForecastFailure, at date: Date, tenantId: String? = nil, _ db: SQLiteConnection
    ) throws -> Int {
        var sql = "UPDATE forecasts SET state = 'failed', error = ?, finished_at = ? WHERE state = 'running'"
        var arguments: SQLiteArguments = [try json(failure), StorageDate.text(date)]
        if let tenantId {
            sql += " AND tenant_id = ?"
            arguments.append(tenantId)
        }
        try db.execute(sql, arguments)
        return db.changes
    }

    private static func record(_ row: SQLiteRow) throws -> ForecastRecord {
        let state: String = try row.get(2)
        let error: String? = try row.get(5)
        return ForecastRecord(
            id: try row.get(0), tenantId: try row.get(1), state: ForecastState(rawValue: state) ?? .failed,
            progress: try row.get(3),
            request: try JSONDecoder().decode(ForecastRequest.self, from: Data(try row.get(4, as: String.self).utf8)),
            failure: try error.map { try JSONDecoder().decode(ForecastFailure.self, from: Data($0.utf8)) },
            devicesPerSecond: try row.get(6), createdAt: try StorageDate.read(row, 7),
            finishedAt: try StorageDate.readOptional(row, 8))
    }

    /// JSON with sorted keys, as the API writes it.
    private static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try CompactJSONEncoder(escapesSlashes: false).encode(value), as: UTF8.self)
    }
}
