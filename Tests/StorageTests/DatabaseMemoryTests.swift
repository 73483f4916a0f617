import Dispatch
import Foundation
import Testing
@testable import Storage

/// Issue 26 (defect 4): memory returned once the service is idle — the connections' page caches too, which a burst
/// of writes had filled and nothing emptied.
@Suite struct DatabaseMemoryTests {
    /// Bytes the connection's page cache holds (`SQLITE_DBSTATUS_CACHE_USED`).
    static func cacheUsed(_ connection: SQLiteConnection) throws -> Int {
        try connection.cacheUsedBytes()
    }

    /// A table of some 4 MiB, read through, so that the writer's and a reader's caches fill.
    static func fill(_ database: Database) throws {
        try database.write { db in
            try db.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB)")
            for id in 0..<1_000 { try db.execute("INSERT INTO blobs VALUES (?, randomblob(4000))", [Int64(id)]) }
        }
        _ = try database.read { db in try db.scalar("SELECT sum(length(data)) FROM blobs", as: Int.self) }
    }

    @Test func theCachesAreReleasedAfterAnIntervalWithoutCommits() throws {
        try withDatabase { database in
            try Self.fill(database)
            let writerBefore = try database.write { db in try Self.cacheUsed(db) }
            #expect(writerBefore > 1 << 20)
            // The first look notes the commits; the next, with none since, releases.
            #expect(database.releaseMemoryIfIdle() == false)
            #expect(database.releaseMemoryIfIdle() == true)
            let writerAfter = try database.writeWithoutTransaction { db in try Self.cacheUsed(db) }
            #expect(writerAfter < writerBefore / 4)
            // What was released reads back the same.
            #expect(try database.read { db in try db.scalar("SELECT count(*) FROM blobs", as: Int.self) } == 1_000)
        }
    }

    @Test func aCommitSinceTheLastLookKeepsTheCaches() throws {
        try withDatabase { database in
            try Self.fill(database)
            #expect(database.releaseMemoryIfIdle() == false)
            try database.write { db in try db.execute("INSERT INTO blobs VALUES (1000, x'00')") }
            #expect(database.releaseMemoryIfIdle() == false)
            #expect(try database.writeWithoutTransaction { db in try Self.cacheUsed(db) } > 1 << 20)
        }
    }

    @Test func aReaderInUseIsNeverWaitedFor() throws {
        try withDatabase { database in
            try Self.fill(database)
            #expect(database.releaseMemoryIfIdle() == false)
            let released = database.read { _ in database.releaseMemoryIfIdle() }
            #expect(released == false)
            let writing = try database.write { _ in database.releaseMemoryIfIdle() }
            #expect(writing == false)
        }
    }
}
