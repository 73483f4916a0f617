import Foundation
import Testing
@testable import Storage

/// `serve --replicated`: Litestream replicates the database and does the WAL's checkpoints, so bgemu's own never
/// fight them (``CheckpointPolicy``): none below the hard limit, only PASSIVE ones past it, none on close.
@Suite struct ReplicatedCheckpointTests {
    /// Small limits, so that a test crosses them in a few hundred rows of a page each.
    static let limits = WALCheckpointer.Limits(threshold: 50, restartLength: 100, hardLimit: 200)
    static let page = String(repeating: "x", count: 3_000)

    static func open(_ path: String, _ policy: CheckpointPolicy, limits: WALCheckpointer.Limits = limits) throws -> Database {
        let database = try Database(
            path: path, readerCount: 1, groupCommit: GroupCommit.Settings(), checkpointing: policy, checkpointLimits: limits)
        try DatabaseMigrator.bgemu.migrate(database)
        return database
    }

    /// The WAL header's checkpoint sequence and salts: they change each time the WAL starts over.
    static func walGeneration(_ path: String) throws -> Data {
        let header = try Data(contentsOf: URL(fileURLWithPath: path + "-wal")).prefix(24)
        return header.suffix(12)
    }

    static func walBytes(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Writes `rows` rows of about a page each, one transaction each, and returns the longest write.
    static func write(_ rows: Range<Int>, to database: Database) throws -> Duration {
        let clock = ContinuousClock()
        var longest = Duration.zero
        for n in rows {
            let took = try clock.measure {
                try database.write { try $0.execute("INSERT INTO settings VALUES (?, ?)", ["k\(n)", page]) }
            }
            longest = max(longest, took)
        }
        return longest
    }

    @Test func replicatedModeAsksForNoCheckpointOfItsOwnBelowTheHardLimit() throws {
        try withTemporaryPath { path throws in
            // The migrations' pages count too: a hard limit well past them and the rows.
            let database = try Self.open(path, .replicated, limits: .init(threshold: 50, restartLength: 100, hardLimit: 2_000))
            defer { database.close() }
            let checkpointer = try #require(database.checkpointer)
            let generation = try Self.walGeneration(path)
            _ = try Self.write(0..<300, to: database)  // six thresholds, past the restart length, under the hard limit
            usleep(200_000)  // a queued checkpoint would have run by now
            #expect(checkpointer.runs.load(ordering: .relaxed) == 0)
            #expect(checkpointer.inlineRuns.load(ordering: .relaxed) == 0)
            #expect(try Self.walGeneration(path) == generation)  // the WAL never started over: Litestream's to do
        }
    }

    /// Litestream holds a read transaction between its checkpoints. A RESTART or TRUNCATE checkpoint would wait for
    /// it (the busy timeout, 5 s) and then fail; the PASSIVE one past the hard limit copies what it may and returns.
    @Test func behindALitestreamReadLockCommitsPastTheHardLimitNeverWaitAndTheWALNeverStartsOver() throws {
        try withTemporaryPath { path throws in
            let database = try Self.open(path, .replicated)
            defer { database.close() }
            let checkpointer = try #require(database.checkpointer)
            _ = try Self.write(0..<10, to: database)
            // As Litestream's: a read-write connection of another owner, in a read transaction it keeps open.
            let litestream = try SQLiteConnection(path: path)
            defer { litestream.close() }
            try litestream.execute("BEGIN; SELECT count(*) FROM settings;")
            let generation = try Self.walGeneration(path)

            let longest = try Self.write(10..<500, to: database)  // 2.5 times the hard limit
            #expect(checkpointer.inlineRuns.load(ordering: .relaxed) > 0)  // the hard limit was reached, and acted on
            #expect(longest < .milliseconds(2_500), "a commit waited \(longest) behind the read lock")
            #expect(try Self.walGeneration(path) == generation)  // never restarted under the reader
            #expect(Self.walBytes(path) > 490 * 4_096)  // every frame still there for Litestream to copy
            #expect(checkpointer.runs.load(ordering: .relaxed) == 0)
            try litestream.execute("ROLLBACK")
        }
    }

    /// Litestream stopped (no read lock): the WAL is still bounded, by the PASSIVE checkpoint at the hard limit, and
    /// starts over (Litestream, back, sees that and takes a new snapshot).
    @Test func withoutLitestreamTheHardLimitStillBoundsTheWAL() throws {
        try withTemporaryPath { path throws in
            let database = try Self.open(path, .replicated)
            defer { database.close() }
            let generation = try Self.walGeneration(path)
            _ = try Self.write(0..<700, to: database)
            #expect(try Self.walGeneration(path) != generation)
            #expect(Self.walBytes(path) < 2 * 200 * 4_200)  // about the hard limit's length at most, not 700 pages
            #expect(try database.read { try $0.scalar("SELECT count(*) FROM settings", as: Int.self) } == 700)
        }
    }

    @Test func replicatedConnectionsLeaveTheWALForLitestreamWhenTheyClose() throws {
        try withTemporaryPath { path throws in
            let database = try Self.open(path, .replicated)
            _ = try Self.write(0..<20, to: database)
            database.close()
            #expect(Self.walBytes(path) > 20 * 4_096)  // not checkpointed into the file and removed
            let again = try Self.open(path, .replicated)  // and nothing is lost: SQLite reads the WAL on open
            defer { again.close() }
            #expect(try again.read { try $0.scalar("SELECT count(*) FROM settings", as: Int.self) } == 20)
        }
    }

    @Test func withoutReplicationTheLastConnectionStillCheckpointsAndRemovesTheWAL() throws {
        try withTemporaryPath { path throws in
            let database = try Self.open(path, .own)
            _ = try Self.write(0..<20, to: database)
            database.close()
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }

    @Test func litestreamsOwnTablesDoNotMakeADatabaseBgemus() throws {
        try withTemporaryPath { path throws in
            let litestream = try SQLiteConnection(path: path)
            try litestream.execute("""
                CREATE TABLE _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER);
                CREATE TABLE _litestream_lock (id INTEGER);
                """)
            litestream.close()
            let database = try Database(path: path, checkpointing: .replicated)
            defer { database.close() }
            #expect(database.isFirstStart)
        }
    }
}
