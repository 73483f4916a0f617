import Dispatch
import Foundation
import Synchronization
import Testing
@testable import Storage

/// Group commit: writes of several threads that arrive together share one transaction, each is answered once that
/// transaction has committed, and one that fails is rolled back alone.
@Suite struct GroupCommitTests {
    struct Boom: Error {}

    /// Holds the leader's first write until `count` more writes have queued behind it, so that they make one batch.
    private static func holdFirstWrite(
        _ database: Database, thenQueue count: Int, _ write: @escaping @Sendable (Int) throws -> Void
    ) -> [Result<Void, any Error>] {
        let release = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        let results = Mutex<[Int: Result<Void, any Error>]>([:])
        let threads = TestThreads()
        threads.spawn {
            let result = Result {
                try database.writeTogether { db in
                    started.signal()
                    release.wait()
                    try db.execute("INSERT INTO settings VALUES (?, ?)", ["first", "0"])
                }
            }
            results.withLock { $0[-1] = result }
        }
        started.wait()
        for index in 0..<count {
            threads.spawn {
                let result = Result { try write(index) }
                results.withLock { $0[index] = result }
            }
        }
        let deadline = Date().addingTimeInterval(30)  // returns as soon as they queued; generous for a loaded CI
        while database.groupCommit.queuedCount < count, Date() < deadline { usleep(1_000) }
        #expect(database.groupCommit.queuedCount == count)
        release.signal()
        threads.wait()
        let all = results.withLock { $0 }
        #expect((try? all[-1]?.get()) != nil)
        return (0..<count).map { all[$0] ?? .failure(Boom()) }
    }

    private static func count(_ database: Database, _ sql: String = "SELECT count(*) FROM settings") throws -> Int {
        try database.read { try $0.scalar(sql, as: Int.self) } ?? -1
    }

    @Test func writesThatArriveWhileACommitRunsShareTheNextTransaction() throws {
        try withDatabase { database throws in
            let commits = Atomic(0)
            database.observeCommits { _ in commits.add(1, ordering: .relaxed) }
            let results = Self.holdFirstWrite(database, thenQueue: 20) { index in
                try database.writeTogether { db in
                    try db.execute("INSERT INTO settings VALUES (?, ?)", ["k\(index)", "\(index)"])
                }
                // Answered only once committed: a reader (another connection) sees the row at once.
                let seen = try database.read { try $0.scalar("SELECT value FROM settings WHERE name = ?", ["k\(index)"], as: String.self) }
                guard seen == "\(index)" else { throw Boom() }
            }
            #expect(results.allSatisfy { (try? $0.get()) != nil })
            #expect(try Self.count(database) == 21)
            // The held write's own transaction, and one for the twenty that queued behind it.
            #expect(commits.load(ordering: .relaxed) == 2)
        }
    }

    @Test func aWriteThatFailsInABatchIsRolledBackAloneAndItsCallerGetsTheError() throws {
        try withDatabase { database throws in
            let results = Self.holdFirstWrite(database, thenQueue: 9) { index in
                try database.writeTogether { db in
                    try db.execute("INSERT INTO settings VALUES (?, ?)", ["k\(index)", "\(index)"])
                    if index % 3 == 1 { throw Boom() }
                }
            }
            for (index, result) in results.enumerated() {
                if index % 3 == 1 {
                    #expect(throws: Boom.self) { try result.get() }
                } else {
                    #expect((try? result.get()) != nil)
                }
            }
            #expect(try Self.count(database, "SELECT count(*) FROM settings WHERE name LIKE 'k%'") == 6)
            #expect(try Self.count(database, "SELECT count(*) FROM settings WHERE name IN ('k1', 'k4', 'k7')") == 0)
        }
    }

    @Test func aDuplicateInABatchFailsItsOwnWriteOnly() throws {
        try withDatabase { database throws in
            let results = Self.holdFirstWrite(database, thenQueue: 4) { index in
                try database.writeTogether { db in
                    // Two writes insert the same key: whichever runs second violates the primary key.
                    try db.execute("INSERT INTO settings VALUES (?, ?)", [index < 2 ? "same" : "k\(index)", "\(index)"])
                }
            }
            #expect(results.filter { (try? $0.get()) != nil }.count == 3)
            #expect(try Self.count(database) == 4)
        }
    }

    @Test func aGroupedWriteInsideAWriteNestsInItsTransaction() throws {
        try withDatabase { database throws in
            #expect(throws: Boom.self) {
                try database.write { db throws in
                    try database.writeTogether { inner in try inner.execute("INSERT INTO settings VALUES ('a', '1')") }
                    throw Boom()
                }
            }
            #expect(try Self.count(database) == 0)
            try database.write { _ throws in
                try database.writeTogether { inner in try inner.execute("INSERT INTO settings VALUES ('b', '2')") }
            }
            #expect(try Self.count(database) == 1)
        }
    }

    @Test func manyThreadsWritingAtOnceLoseNothing() throws {
        try withDatabase { database throws in
            let commits = Atomic(0)
            database.observeCommits { _ in commits.add(1, ordering: .relaxed) }
            DispatchQueue.concurrentPerform(iterations: 16) { thread in
                for n in 0..<100 {
                    try? database.writeTogether { db in
                        try db.execute("INSERT INTO settings VALUES (?, ?)", ["t\(thread)-\(n)", "\(n)"])
                    }
                }
            }
            #expect(try Self.count(database) == 1_600)
            #expect(commits.load(ordering: .relaxed) <= 1_600)
        }
    }

    /// Each waiting thread is woken once, by its own semaphore, to return or to lead the next batch: with more
    /// threads than cores, every write still returns, only after it is committed, and the lead passes on.
    @Test func thirtyTwoThreadsEachReturnOnlyOnceTheirOwnWriteIsCommitted() throws {
        try withDatabase { database throws in
            let group = DispatchGroup()
            let unseen = Atomic(0)
            for thread in 0..<32 {
                group.enter()
                Thread.detachNewThread {
                    for n in 0..<40 {
                        let key = "t\(thread)-\(n)"
                        try? database.writeTogether { db in try db.execute("INSERT INTO settings VALUES (?, ?)", [key, "\(n)"]) }
                        let seen = try? database.read { try $0.scalar("SELECT value FROM settings WHERE name = ?", [key], as: String.self) }
                        if seen != "\(n)" { unseen.add(1, ordering: .relaxed) }
                    }
                    group.leave()
                }
            }
            #expect(group.wait(timeout: .now() + 60) == .success)
            #expect(unseen.load(ordering: .relaxed) == 0)
            #expect(try Self.count(database) == 32 * 40)
            #expect(database.groupCommit.queuedCount == 0)
        }
    }
}
