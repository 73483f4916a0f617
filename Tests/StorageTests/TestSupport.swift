// A fresh database file per test, removed afterwards.
import Foundation
@testable import Storage

/// Runs `body` with the path of a database file that does not exist yet, then removes it with its WAL files.
@discardableResult
func withTemporaryPath<T>(_ body: (String) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgemu-storage-tests", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("\(UUID().uuidString).sqlite").path
    defer {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    return try body(path)
}

/// Runs `body` with a bare connection to a fresh file.
@discardableResult
func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
    try withTemporaryPath { path throws in
        let connection = try SQLiteConnection(path: path)
        defer { connection.close() }
        return try body(connection)
    }
}
