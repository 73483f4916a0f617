import Synchronization
import Testing
@testable import Storage

/// The storage layer's metrics hook: the duration of every committed write transaction's `COMMIT`.
@Suite struct CommitObserverTests {
    struct Boom: Error {}

    @Test func everyCommittedWriteReportsItsCommitOnceAndARolledBackOneNothing() throws {
        try withDatabase { database throws in
            let commits = Mutex<[Duration]>([])
            database.observeCommits { duration in commits.withLock { $0.append(duration) } }
            try database.write { db throws in try db.execute("INSERT INTO settings VALUES (?, ?)", ["a", "1"]) }
            #expect(commits.withLock { $0.count } == 1)
            // A write nested in a write is a savepoint of the outer transaction: one commit in all.
            try database.write { db throws in
                try db.execute("INSERT INTO settings VALUES (?, ?)", ["b", "2"])
                try database.write { inner throws in try inner.execute("INSERT INTO settings VALUES (?, ?)", ["c", "3"]) }
            }
            #expect(commits.withLock { $0.count } == 2)
            #expect(throws: Boom.self) {
                try database.write { db throws in
                    try db.execute("INSERT INTO settings VALUES (?, ?)", ["d", "4"])
                    throw Boom()
                }
            }
            // Reads and writes outside a transaction commit nothing of the observer's.
            _ = try database.read { db throws in try db.scalar("SELECT count(*) FROM settings", as: Int.self) }
            try database.writeWithoutTransaction { db throws in try db.execute("PRAGMA foreign_keys=ON") }
            let durations = commits.withLock { $0 }
            #expect(durations.count == 2)
            #expect(durations.allSatisfy { $0 >= .zero && $0 < .seconds(10) })
        }
    }
}
