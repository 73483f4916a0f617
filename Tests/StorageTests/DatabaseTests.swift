import Dispatch
import Synchronization
import Foundation
import Testing
@testable import Storage

@Suite struct DatabaseTests {
    struct Boom: Error {}

    @Test func everyConnectionHasWALAndForeignKeys() throws {
        try withDatabase { database throws in
            let (readMode, readKeys) = try database.read { db throws in
                (try db.scalar("PRAGMA journal_mode", as: String.self), try db.scalar("PRAGMA foreign_keys", as: Int.self))
            }
            #expect(readMode == "wal")
            #expect(readKeys == 1)
            let writeKeys = try database.write { db throws in try db.scalar("PRAGMA foreign_keys", as: Int.self) }
            #expect(writeKeys == 1)
            let synchronous = try database.writeWithoutTransaction { db throws in try db.scalar("PRAGMA synchronous", as: Int.self) }
            #expect(synchronous == 1)  // NORMAL
        }
    }

    @Test func writeIsCommittedBeforeItReturns() throws {
        try withDatabase { database throws in
            try database.write { db throws in try db.execute("INSERT INTO settings VALUES (?, ?)", ["a", "1"]) }
            // A reader, another connection, sees it at once.
            #expect(try database.read { db throws in db.isReadOnly } == true)
            #expect(try database.read { db throws in try db.scalar("SELECT value FROM settings", as: String.self) } == "1")
        }
    }

    @Test func writeRollsBackWhenItsBodyThrows() throws {
        try withDatabase { database throws in
            #expect(throws: Boom.self) {
                try database.write { db throws in
                    try db.execute("INSERT INTO settings VALUES (?, ?)", ["a", "1"])
                    throw Boom()
                }
            }
            #expect(try database.read { db throws in try db.scalar("SELECT count(*) FROM settings", as: Int.self) } == 0)
        }
    }

    @Test func readsRefuseToWrite() throws {
        try withDatabase { database throws in
            let error = #expect(throws: SQLiteError.self) {
                try database.read { db throws in try db.execute("INSERT INTO settings VALUES (?, ?)", ["a", "1"]) }
            }
            #expect(error?.code == .readOnly)
        }
    }

    @Test func nestedCallsReuseTheirConnection() throws {
        try withDatabase { database throws in
            try database.write { db throws in
                try db.execute("INSERT INTO settings VALUES (?, ?)", ["a", "1"])
                // A read inside a write sees the write's uncommitted changes; a write inside nests as a savepoint.
                #expect(try database.read { try $0.scalar("SELECT count(*) FROM settings", as: Int.self) } == 1)
                try? database.write { db throws in
                    try db.execute("INSERT INTO settings VALUES (?, ?)", ["b", "2"])
                    throw Boom()
                }
                try database.write { db throws in try db.execute("INSERT INTO settings VALUES (?, ?)", ["c", "3"]) }
            }
            let names = try database.read { db throws in
                try database.read { _ throws in  // a read inside a read takes no second reader
                    try db.query("SELECT name FROM settings ORDER BY name") { try $0.get(0, as: String.self) }
                }
            }
            #expect(names == ["a", "c"])
        }
    }

    @Test func dataSurvivesClosingAndReopening() throws {
        try withTemporaryPath { path throws in
            let first = try openDatabase(path: path)
            #expect(first.isFirstStart)
            try first.write { db throws in try db.execute("INSERT INTO settings VALUES (?, ?)", ["admin", "hash"]) }
            first.close()
            #expect(!first.ping())

            let second = try openDatabase(path: path)
            defer { second.close() }
            #expect(!second.isFirstStart)
            #expect(second.ping())
            #expect(try second.read { db throws in try db.scalar("SELECT value FROM settings", as: String.self) } == "hash")
        }
    }

    /// What a `kill -9` leaves is the files as they are: a committed write is in them, without a close or checkpoint.
    @Test func committedWriteIsInTheFilesWithoutClosing() throws {
        try withDatabase { database throws in
            try database.write { db throws in try db.execute("INSERT INTO settings VALUES (?, ?)", ["a", "1"]) }
            try withTemporaryPath { copy throws in
                for suffix in ["", "-wal"] {
                    try FileManager.default.copyItem(atPath: database.path + suffix, toPath: copy + suffix)
                }
                let recovered = try SQLiteConnection(path: copy)
                defer { recovered.close() }
                #expect(try recovered.scalar("SELECT value FROM settings WHERE name = 'a'", as: String.self) == "1")
            }
        }
    }

    @Test func inMemoryDatabaseWorksWithoutReaders() throws {
        let database = try openDatabase(path: ":memory:")
        #expect(database.isFirstStart)
        try database.write { db throws in try db.execute("INSERT INTO settings VALUES (?, ?)", ["a", "1"]) }
        #expect(try database.read { db throws in try db.scalar("SELECT value FROM settings", as: String.self) } == "1")
        #expect(database.ping())
    }

    @Test func manyThreadsReadAndWriteAtOnce() throws {
        try withDatabase(readerCount: 3) { database throws in
            try database.write { db throws in try db.execute("CREATE TABLE counter (n INTEGER NOT NULL)") }
            try database.write { db throws in try db.execute("INSERT INTO counter VALUES (0)", []) }
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 400) { i in
                do {
                    let name = "k\(i)"
                    try database.write { db throws in
                        try db.execute("INSERT INTO settings VALUES (?, ?)", [name, "\(i)"])
                        try db.execute("UPDATE counter SET n = n + 1", [])
                    }
                    // Read-your-writes from another connection, while other threads write.
                    let value = try database.read { db throws in
                        try db.scalar("SELECT value FROM settings WHERE name = ?", [name], as: String.self)
                    }
                    if value != "\(i)" { failures.withLock { $0.append("\(name) read \(value ?? "nil")") } }
                    _ = try database.read { db throws in
                        try db.transaction(.deferred) {
                            let n = try db.scalar("SELECT n FROM counter", as: Int.self) ?? -1
                            let rows = try db.scalar("SELECT count(*) FROM settings", as: Int.self) ?? -2
                            if n != rows { failures.withLock { $0.append("snapshot: counter \(n) vs \(rows) rows") } }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])
            #expect(try database.read { db throws in try db.scalar("SELECT n FROM counter", as: Int.self) } == 400)
        }
    }
}
