import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Storage

/// The WAL is checkpointed by a thread of its own, not inside the commit that crosses SQLite's threshold.
@Suite struct WALCheckpointerTests {
    private static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test func writesPastTheThresholdAreCheckpointedByTheCheckpointerThread() throws {
        try withTemporaryPath { path throws in
            let database = try openDatabase(path: path, readerCount: 1)
            defer { database.close() }
            let checkpointer = try #require(database.checkpointer)
            let before = Self.size(path)
            // A page of 4 KiB per row through the writer, twice the threshold's worth: past it at least once.
            let threshold = Int(WALCheckpointer.Limits().threshold)
            let rows = 2 * threshold
            let blob = String(repeating: "x", count: 3_000)
            for n in 0..<rows {
                try database.write { db in try db.execute("INSERT INTO settings VALUES (?, ?)", ["k\(n)", blob]) }
            }
            let deadline = Date().addingTimeInterval(10)
            while checkpointer.runs.load(ordering: .relaxed) == 0, Date() < deadline { usleep(10_000) }
            #expect(checkpointer.runs.load(ordering: .relaxed) >= 1)
            // The pages reached the database file itself, not only the WAL.
            #expect(Self.size(path) > before + threshold * 3_000)
            #expect(try database.read { try $0.scalar("SELECT count(*) FROM settings", as: Int.self) } == rows)
        }
    }

    /// Under writes that never pause, the copy never catches up with the writer by itself: without a copy
    /// finished with the writer held, SQLite never starts the WAL over, and it grows to the hard limit.
    @Test func aFloodOfWritesStillStartsTheWALOver() throws {
        try withTemporaryPath { path throws in
            let limits = WALCheckpointer.Limits(
                threshold: 50, restartLength: 200, finishingFrames: 16, catchUpCopies: 3, hardLimit: 1_000_000)
            let database = try Database(path: path, readerCount: 1, groupCommit: GroupCommit.Settings(), checkpoints: limits)
            defer { database.close() }
            let checkpointer = try #require(database.checkpointer)
            try database.write { try $0.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB NOT NULL)") }
            // A page or so a commit, 40 times the restart length in all, from threads that keep the writer busy.
            let blob = [UInt8](repeating: 7, count: 3_000)
            let failures = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for n in 0..<2_000 {
                    do {
                        try database.writeTogether { try $0.execute("INSERT INTO t VALUES (?, ?)", [thread * 2_000 + n, blob]) }
                    } catch {
                        failures.add(1, ordering: .relaxed)
                    }
                }
            }
            #expect(failures.load(ordering: .relaxed) == 0)
            #expect(checkpointer.finishes.load(ordering: .relaxed) >= 1)
            // The WAL file keeps the longest length it reached (SQLite writes it over from the start): far below the
            // 8,000 pages written, where it would be had it never started over. (It passes the restart length by
            // what the writers add while the checkpointer copies: 600–1,100 pages on the 2 cores this was written on.)
            let frameSize = 4_096 + 24
            #expect(Self.size(path + "-wal") < 3_000 * frameSize)
            #expect(try database.read { try $0.scalar("SELECT count(*) FROM t", as: Int.self) } == 8_000)
        }
    }

    @Test func anInMemoryDatabaseHasNoCheckpointer() throws {
        let database = try Database(path: ":memory:")
        defer { database.close() }
        #expect(database.checkpointer == nil)
    }
}
