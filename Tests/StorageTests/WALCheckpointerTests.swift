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
            // ~4,000 pages of 4 KiB through the writer: past the threshold several times.
            let blob = String(repeating: "x", count: 3_000)
            for n in 0..<4_000 {
                try database.write { db in try db.execute("INSERT INTO settings VALUES (?, ?)", ["k\(n)", blob]) }
            }
            let deadline = Date().addingTimeInterval(10)
            while checkpointer.runs.load(ordering: .relaxed) == 0, Date() < deadline { usleep(10_000) }
            #expect(checkpointer.runs.load(ordering: .relaxed) >= 1)
            // The pages reached the database file itself, not only the WAL.
            #expect(Self.size(path) > before + 4 * 1_000 * 1_000)
            #expect(try database.read { try $0.scalar("SELECT count(*) FROM settings", as: Int.self) } == 4_000)
        }
    }

    @Test func anInMemoryDatabaseHasNoCheckpointer() throws {
        let database = try Database(path: ":memory:")
        defer { database.close() }
        #expect(database.checkpointer == nil)
    }
}
