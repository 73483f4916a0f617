import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Storage

/// A leader gathering its batch (see ``GroupCommit``): after a batch of three or more writes it waits for as many
/// (up to the limit) or the timeout; a lone writer, or two writes that met by chance, never wait.
@Suite struct GroupCommitGatherTests {
    /// A migrated database whose leaders gather as `settings` say.
    private static func withDatabase<T>(_ settings: GroupCommit.Settings, _ body: (Database) throws -> T) throws -> T {
        try withTemporaryPath { path throws in
            let database = try Database(path: path, groupCommit: settings)
            defer { database.close() }
            try DatabaseMigrator.bgemu.migrate(database)
            return try body(database)
        }
    }

    private static func insert(_ database: Database, _ name: String) throws {
        try database.writeTogether { db in try db.execute("INSERT INTO settings VALUES (?, ?)", [name, "1"]) }
    }

    /// Commits one batch of `count` writes submitted `spacing` microseconds apart: the first write is held inside
    /// its transaction until the others queued behind it, then they are committed together by the next leader.
    private static func commitOneBatch(of count: Int, spacedBy spacing: UInt32 = 0, _ database: Database, prefix: String) {
        let release = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        let threads = TestThreads()
        threads.spawn {
            try? database.writeTogether { db in
                started.signal()
                release.wait()
                try db.execute("INSERT INTO settings VALUES (?, ?)", ["\(prefix)-held", "1"])
            }
        }
        started.wait()
        for n in 0..<count {
            threads.spawn { try? insert(database, "\(prefix)-\(n)") }
            if spacing > 0 { usleep(spacing) }
        }
        let deadline = Date().addingTimeInterval(10)
        while database.groupCommit.queuedCount < count, Date() < deadline { usleep(1_000) }
        release.signal()
        threads.wait()
    }

    private static func seconds(_ body: () throws -> Void) rethrows -> TimeInterval {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }

    @Test func aLoneWriterNeverWaitsForABatch() throws {
        try Self.withDatabase(GroupCommit.Settings(gatherLimit: 8, gatherTimeout: .seconds(5), gatherAfter: 3)) { database throws in
            let before = database.groupCommit.statistics
            let elapsed = try Self.seconds { for n in 0..<20 { try Self.insert(database, "lone-\(n)") } }
            let after = database.groupCommit.statistics
            #expect(after.batches - before.batches == 20)
            #expect(elapsed < 4, "a lone writer waited for a batch: \(elapsed) s for 20 writes")
        }
    }

    @Test func twoWritesThatMetByChanceDoNotMakeTheNextLeaderWait() throws {
        try Self.withDatabase(GroupCommit.Settings(gatherLimit: 8, gatherTimeout: .seconds(5), gatherAfter: 3)) { database throws in
            Self.commitOneBatch(of: 2, database, prefix: "pair")
            let elapsed = try Self.seconds { try Self.insert(database, "next") }
            #expect(elapsed < 4, "a leader waited after a batch of two: \(elapsed) s")
        }
    }

    @Test func afterABatchOfFourTheLeaderWaitsForFourWritesAndCommitsThemTogether() throws {
        try Self.withDatabase(GroupCommit.Settings(gatherLimit: 8, gatherTimeout: .seconds(20), gatherAfter: 3)) { database throws in
            Self.commitOneBatch(of: 4, database, prefix: "first")
            let before = database.groupCommit.statistics
            // Four writers 50 ms apart: without the gathering, the first would commit alone at once.
            let threads = TestThreads()
            let elapsed = Self.seconds {
                for n in 0..<4 {
                    threads.spawn { try? Self.insert(database, "spread-\(n)") }
                    usleep(50_000)
                }
                threads.wait()
            }
            let after = database.groupCommit.statistics
            #expect(after.batches - before.batches == 1)
            #expect(after.writes - before.writes == 4)
            #expect(elapsed < 15, "the leader waited past its batch filling: \(elapsed) s")
            #expect(try database.read { try $0.scalar("SELECT count(*) FROM settings WHERE name LIKE 'spread-%'", as: Int.self) } == 4)
        }
    }

    /// Writes arriving 600 ms apart would not fill a batch within a 400 ms timeout: even after a batch of four, the
    /// next leader does not wait for them (a neighbour's paced writes are not delayed for nothing).
    @Test func writesTooFarApartToFillABatchInTimeAreNotWaitedFor() throws {
        try Self.withDatabase(GroupCommit.Settings(gatherLimit: 8, gatherTimeout: .milliseconds(400), gatherAfter: 3)) { database throws in
            Self.commitOneBatch(of: 4, spacedBy: 600_000, database, prefix: "slow")
            let elapsed = try Self.seconds { try Self.insert(database, "next") }
            #expect(elapsed < 0.3, "the leader waited for writes that arrive 600 ms apart: \(elapsed) s")
        }
    }

    @Test func aLeaderWaitsNoLongerThanTheTimeoutAndALoneWriteEndsTheGathering() throws {
        try Self.withDatabase(GroupCommit.Settings(gatherLimit: 8, gatherTimeout: .seconds(1), gatherAfter: 3)) { database throws in
            Self.commitOneBatch(of: 5, database, prefix: "first")
            // No one else writes: the leader waits out its timeout, commits alone...
            let waited = try Self.seconds { try Self.insert(database, "alone") }
            #expect(waited >= 0.95, "the leader did not wait for its batch: \(waited) s")
            #expect(waited < 10)
            // ...and the batch of one it committed makes the next leader take its write at once.
            let next = try Self.seconds { try Self.insert(database, "after") }
            #expect(next < 0.9, "a leader waited after a batch of one: \(next) s")
        }
    }
}
