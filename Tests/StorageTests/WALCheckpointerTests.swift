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
            let deadline = Date().addingTimeInterval(30)  // returns at the first run; generous for a loaded CI
            while checkpointer.runs.load(ordering: .relaxed) == 0, Date() < deadline { usleep(10_000) }
            #expect(checkpointer.runs.load(ordering: .relaxed) >= 1)
            // The pages reached the database file itself, not only the WAL.
            #expect(Self.size(path) > before + threshold * 3_000)
            #expect(try database.read { try $0.scalar("SELECT count(*) FROM settings", as: Int.self) } == rows)
        }
    }

    /// A flood of writes never lets the copy catch up with the writer, so the WAL runs from empty to the hard
    /// limit each time: a checkpoint asked for after every commit past the threshold was about a thousand copies
    /// and syncs a second. Below the restart length one is asked for each threshold's worth of pages; past it,
    /// after every commit, so that the copy is close behind when the writer checkpoints at the hard limit.
    @Test func checkpointsAreAskedForByPagesWrittenThenAfterEveryCommitNearTheHardLimit() {
        let limits = WALCheckpointer.Limits(threshold: 1_000, restartLength: 16_000, hardLimit: 20_000)
        var askedAt: Int32 = 0
        var asked: [Int32] = []
        // Commits of 7 pages each, from an empty WAL to the hard limit, then (started over) to 3,000 pages.
        for pages in stride(from: 7, to: 20_000, by: 7).map(Int32.init) + stride(from: 7, to: 3_000, by: 7).map(Int32.init) {
            if limits.asks(at: pages, askedAt: &askedAt) { asked.append(pages) }
        }
        let belowRestart = asked.prefix { $0 < 16_000 }
        #expect(belowRestart.count == 15)  // at 1,001, 2,002, … one a thousand pages
        #expect(zip(belowRestart, belowRestart.dropFirst()).allSatisfy { $1 - $0 >= 1_000 && $1 - $0 < 1_007 })
        #expect(asked.filter { $0 >= 16_000 }.count == (20_000 - 16_000) / 7 + 1)  // every commit
        #expect(asked.suffix(2) == [1_001, 2_002])  // the WAL started over: counted from its start again
    }

    @Test func anInMemoryDatabaseHasNoCheckpointer() throws {
        let database = try Database(path: ":memory:")
        defer { database.close() }
        #expect(database.checkpointer == nil)
    }
}
