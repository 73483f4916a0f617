import CSQLite
import Foundation
import Testing
@testable import Storage

@Suite struct SQLiteConnectionTests {
    @Test func bindsAndReadsEveryType() throws {
        try withConnection { db throws in
            try db.execute("CREATE TABLE t (i INTEGER, n INTEGER, d REAL, s TEXT, b BLOB, e BLOB, f INTEGER, z TEXT)")
            let bytes: [UInt8] = [0, 1, 2, 255]
            try db.execute(
                "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [Int64.max, 42 as Int, 3.25, "héllo\u{0}wörld", bytes, Data(), true, nil])
            let row = try #require(
                try db.queryFirst("SELECT i, n, d, s, b, e, f, z FROM t") { row in
                    (
                        try row.get(0, as: Int64.self), try row.get(1, as: Int.self), try row.get(2, as: Double.self),
                        try row.get(3, as: String.self), try row.get(4, as: [UInt8].self), try row.get(5, as: Data.self),
                        try row.get(6, as: Bool.self), try row.get(7, as: String?.self), try row.get(4, as: Data.self)
                    )
                })
            #expect(row.0 == Int64.max)
            #expect(row.1 == 42)
            #expect(row.2 == 3.25)
            #expect(row.3 == "héllo\u{0}wörld")
            #expect(row.4 == bytes)
            #expect(row.5 == Data())
            #expect(row.6 == true)
            #expect(row.7 == nil)
            #expect(row.8 == Data(bytes))
            // The empty blob is a blob, not NULL.
            #expect(try db.scalar("SELECT typeof(e) FROM t", as: String.self) == "blob")
        }
    }

    @Test func nullInANonOptionalColumnIsAMismatch() throws {
        try withConnection { db throws in
            let error = #expect(throws: SQLiteError.self) {
                _ = try db.queryFirst("SELECT NULL AS missing_value") { try $0.get(0, as: String.self) }
            }
            #expect(error?.code == .mismatch, "\(String(describing: error))")
            #expect(error?.sql == "SELECT NULL AS missing_value")
            #expect(error?.message.contains("missing_value") == true)
        }
    }

    @Test func cachedStatementsAreReused() throws {
        try withConnection { db throws in
            try db.execute("CREATE TABLE t (x INTEGER)")
            let before = db.preparedStatementCount
            for x in 0..<10 { try db.execute("INSERT INTO t (x) VALUES (?)", [x]) }
            #expect(db.preparedStatementCount == before + 1)
            let first = try db.cachedStatement("SELECT count(*) FROM t")
            #expect(try db.cachedStatement("SELECT count(*) FROM t") === first)
            #expect(try db.scalar("SELECT count(*) FROM t", as: Int.self) == 10)
            #expect(db.cachedStatementCount == 2)
            db.clearStatementCache()
            #expect(db.cachedStatementCount == 0)
        }
    }

    @Test func errorsCarryCodesMessageAndSQL() throws {
        try withConnection { db throws in
            let error = #expect(throws: SQLiteError.self) { try db.execute("SELECT * FROM missing", []) }
            #expect(error?.resultCode == SQLITE_ERROR)
            #expect(error?.message == "no such table: missing")
            #expect(error?.sql == "SELECT * FROM missing")
            #expect(error?.description.contains("SELECT * FROM missing") == true)
        }
    }

    @Test func wrongArgumentCountIsRefused() throws {
        try withConnection { db throws in
            let error = #expect(throws: SQLiteError.self) { try db.execute("SELECT ?, ?", [1]) }
            #expect(error?.code == .range)
        }
    }

    @Test func secondStatementInCachedSQLIsRefused() throws {
        try withConnection { db throws in
            #expect(throws: SQLiteError.self) { try db.execute("SELECT 1; SELECT 2", []) }
            #expect(throws: SQLiteError.self) { try db.execute("  -- nothing", []) }
            // Long SQL, so that a tail read after its C string is freed would show.
            let long = "SELECT 1 WHERE " + Array(repeating: "1 = 1", count: 500).joined(separator: " AND ") + ";  "
            for _ in 0..<20 { #expect(try db.makeStatement(long).sql == long) }
        }
    }

    @Test func constraintViolationsAreRecognised() throws {
        try withConnection { db throws in
            try db.execute(
                """
                CREATE TABLE p (id TEXT PRIMARY KEY, name TEXT UNIQUE NOT NULL);
                CREATE TABLE c (p_id TEXT NOT NULL REFERENCES p(id));
                INSERT INTO p VALUES ('a', 'A');
                """)
            do {
                try db.execute("INSERT INTO p VALUES (?, ?)", ["b", "A"])
                Issue.record("expected a UNIQUE violation")
            } catch let error as SQLiteError where error.isUniqueViolation {
                #expect(error.isConstraintViolation)
                #expect(error.extendedCode == .constraintUnique)
                #expect(error.constrainedColumns == ["p.name"])
            }
            // Primary and extended patterns both match in a catch.
            do {
                try db.execute("INSERT INTO c VALUES (?)", ["nope"])
                Issue.record("expected a FOREIGN KEY violation")
            } catch SQLiteError.Code.constraintForeignKey {
            }
            do {
                try db.execute("INSERT INTO p VALUES (?, ?)", ["c", nil])
                Issue.record("expected a NOT NULL violation")
            } catch SQLiteError.Code.constraint {
            }
        }
    }

    @Test func transactionCommitsOrRollsBackOnThrow() throws {
        struct Boom: Error {}
        try withConnection { db throws in
            try db.execute("CREATE TABLE t (x INTEGER)")
            try db.transaction { try db.execute("INSERT INTO t VALUES (?)", [1]) }
            #expect(throws: Boom.self) {
                try db.transaction {
                    try db.execute("INSERT INTO t VALUES (?)", [2])
                    throw Boom()
                }
            }
            #expect(!db.isInTransaction)
            #expect(try db.query("SELECT x FROM t", []) { try $0.get(0, as: Int.self) } == [1])
        }
    }

    @Test func nestedTransactionIsASavepoint() throws {
        struct Boom: Error {}
        try withConnection { db throws in
            try db.execute("CREATE TABLE t (x INTEGER)")
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (?)", [1])
                try? db.transaction {
                    try db.execute("INSERT INTO t VALUES (?)", [2])
                    throw Boom()
                }
                #expect(db.isInTransaction)
                try db.transaction { try db.execute("INSERT INTO t VALUES (?)", [3]) }
            }
            #expect(try db.query("SELECT x FROM t ORDER BY x", []) { try $0.get(0, as: Int.self) } == [1, 3])
        }
    }

    @Test func connectionIsConfigured() throws {
        try withConnection { db throws in
            #expect(try db.scalar("PRAGMA journal_mode", as: String.self) == "wal")
            #expect(try db.scalar("PRAGMA foreign_keys", as: Int.self) == 1)
            #expect(try db.scalar("PRAGMA synchronous", as: Int.self) == 1)  // NORMAL
            #expect(try db.scalar("PRAGMA busy_timeout", as: Int.self) == 5000)
        }
    }

    @Test func closedConnectionThrowsMisuse() throws {
        try withConnection { db throws in
            db.close()
            #expect(db.isClosed)
            #expect(throws: SQLiteError.self) { try db.execute("SELECT 1") }
            #expect(throws: SQLiteError.self) { try db.execute("SELECT 1", []) }
        }
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        try withTemporaryPath { path throws in
            let writer = try SQLiteConnection(path: path)
            try writer.execute("CREATE TABLE t (x INTEGER)")
            let reader = try SQLiteConnection(path: path, readOnly: true)
            let error = #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (?)", [1]) }
            #expect(error?.code == .readOnly)
        }
    }

    @Test func openingAMissingDirectoryFails() {
        let error = #expect(throws: SQLiteError.self) {
            _ = try SQLiteConnection(path: "/nonexistent-\(UUID().uuidString)/db.sqlite")
        }
        #expect(error?.code == .cantOpen)
    }
}
