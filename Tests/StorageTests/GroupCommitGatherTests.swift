import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Storage

/// A leader gathering its batch (see ``GroupCommit``): after a batch of three or more writes it waits for as many
/// (up to the limit) or the timeout; a lone writer, or two writes that met by chance, never wait.
///
/// Whether a leader waited is told by the wall clock against its gather timeout, and the timeouts here are long
/// (seconds, not the service's 1 ms), so that "did not wait" is a bound well under the timeout (1.5 s or more for
/// one write), which a loaded machine's commits never reach, and "waited" a lower bound, which load cannot break.
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
            if spacing > 0 { usleep(spacing) }  // the arrival rate is what the test is about: this pause is it
        }
        let deadline = Date().addingTimeInterval(30)
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
        try Self.withDatabase(GroupCommit.Settings(gatherLimit: 8, gatherTimeout: .seconds(30), gatherAfter: 3)) { database throws in
            let before = database.groupCommit.statistics
            // One wait would be 30 s: 20 writes in less than half that waited for none (and a broken gathering
            // stops the loop after the first wait rather than after twenty).
            var written = 0
            let elapsed = try Self.seconds {
                while written < 20 {
                    let one = try Self.seconds { try Self.insert(database, "lone-\(written)") }
                    written += 1
                    if one >= 15 { break }
                }
            }
            let after = database.groupCommit.statistics
            #expect(written == 20)
            #expect(after.batches - before.batches == 20)
            #expect(elapsed < 15, "a lone writer waited for a batch: \(elapsed) s for \(written) writes")
        }
    }

    @Test func twoWritesThatMetByChanceDoNotMakeTheNextLeaderWait() throws {
        try Self.withDatabase(GroupCommit.Settings(gatherLimit: 8, gatherTimeout: .seconds(30), gatherAfter: 3)) { database throws in
            Self.commitOneBatch(of: 2, database, prefix: "pair")
            let elapsed = try Self.seconds { try Self.insert(database, "next") }
            #expect(elapsed < 15, "a leader waited after a batch of two (a wait is 30 s): \(elapsed) s")
        }
    }

    @Test func afterABatchOfFourTheLeaderWaitsForFourWritesAndCommitsThemTogether() throws {
        try Self.withDatabase(GroupCommit.Settings(gatherLimit: 8, gatherTimeout: .seconds(60), gatherAfter: 3)) { database throws in
            Self.commitOneBatch(of: 4, database, prefix: "first")
            let before = database.groupCommit.statistics
            // Four writers 50 ms apart: without the gathering, the first would commit alone at once.
            let threads = TestThreads()
            let elapsed = Self.seconds {
                for n in 0..<4 {
                    threads.spawn { try? Self.insert(database, "spread-\(n)") }
                    usleep(50_000)  // writers that do not arrive together are the point: the pause is the test's
                }
                threads.wait()
            }
            let after = database.groupCommit.statistics
            #expect(after.batches - before.batches == 1)
            #expect(after.writes - before.writes == 4)
            // Filled, the wait ends: well under the 60 s timeout it would otherwise have waited out.
            #expect(elapsed < 30, "the leader waited past its batch filling: \(elapsed) s")
            #expect(try database.read { try $0.scalar("SELECT count(*) FROM settings WHERE name LIKE 'spread-%'", as: Int.self) } == 4)
        }
    }

    /// Writes arriving 2 s apart would not fill a batch within a 2 s timeout: even after a batch of four, the next
    /// leader does not wait for them (a neighbour's paced writes are not delayed for nothing). The rate a leader
    /// goes by is a moving mean that starts at one write a second; writes 2 s apart (at least: load only spaces
    /// them more) take it to about 1.6 s, past the half timeout (1 s) within which a wait is expected to fill.
    @Test func writesTooFarApartToFillABatchInTimeAreNotWaitedFor() throws {
        try Self.withDatabase(GroupCommit.Settings(gatherLimit: 8, gatherTimeout: .seconds(2), gatherAfter: 3)) { database throws in
            Self.commitOneBatch(of: 4, spacedBy: 2_000_000, database, prefix: "slow")
            let elapsed = try Self.seconds { try Self.insert(database, "next") }
            // A wait would be the whole 2 s timeout (no one else writes): one write takes far less than 1.5 s.
            #expect(elapsed < 1.5, "the leader waited for writes that arrive 2 s apart: \(elapsed) s")
        }
    }

    @Test func aLeaderWaitsNoLongerThanTheTimeoutAndALoneWriteEndsTheGathering() throws {
        try Self.withDatabase(GroupCommit.Settings(gatherLimit: 8, gatherTimeout: .seconds(3), gatherAfter: 3)) { database throws in
            Self.commitOneBatch(of: 5, database, prefix: "first")
            // No one else writes: the leader waits out its timeout (no less), commits alone...
            let waited = try Self.seconds { try Self.insert(database, "alone") }
            #expect(waited >= 2.95, "the leader did not wait for its batch: \(waited) s")
            #expect(waited < 30, "the leader waited on past its 3 s timeout: \(waited) s")
            // ...and the batch of one it committed makes the next leader take its write at once (a wait would be
            // the 3 s timeout again).
            let next = try Self.seconds { try Self.insert(database, "after") }
            #expect(next < 1.5, "a leader waited after a batch of one: \(next) s")
        }
    }
}
