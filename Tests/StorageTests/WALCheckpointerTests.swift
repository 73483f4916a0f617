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
            let rows = 2 * Int(WALCheckpointer.threshold)
            let blob = String(repeating: "x", count: 3_000)
            for n in 0..<rows {
                try database.write { db in try db.execute("INSERT INTO settings VALUES (?, ?)", ["k\(n)", blob]) }
            }
            let deadline = Date().addingTimeInterval(10)
            while checkpointer.runs.load(ordering: .relaxed) == 0, Date() < deadline { usleep(10_000) }
            #expect(checkpointer.runs.load(ordering: .relaxed) >= 1)
            // The pages reached the database file itself, not only the WAL.
            #expect(Self.size(path) > before + Int(WALCheckpointer.threshold) * 3_000)
            #expect(try database.read { try $0.scalar("SELECT count(*) FROM settings", as: Int.self) } == rows)
        }
    }

    @Test func anInMemoryDatabaseHasNoCheckpointer() throws {
        let database = try Database(path: ":memory:")
        defer { database.close() }
        #expect(database.checkpointer == nil)
    }
}
