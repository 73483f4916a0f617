// Named, ordered, append-only schema migrations, recorded in the database they changed.
import Foundation

/// The schema's history as an ordered list of named migrations, each applied once, in its own transaction, and
/// recorded in `schema_migrations(name, applied_at)`.
///
/// The list is **append-only**: a shipped migration is never edited, renamed, reordered or removed; a schema change
/// is a new migration at the end. Hence what a database has applied must be a prefix of the list:
/// - running ``migrate(_:)`` twice is a no-op;
/// - a database with a migration this build does not know was written by a newer build: refuse to start
///   (``DatabaseMigrator/Failure/unknownMigrations(_:)``) rather than run old code on a newer schema;
/// - a known migration missing before applied ones means the list was edited: refuse too.
public struct DatabaseMigrator: Sendable {
    /// One step of the schema.
    public struct Migration: Sendable {
        public let name: String
        public let body: @Sendable (SQLiteConnection) throws -> Void
    }

    /// Why a database cannot be migrated by this build.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The database has migrations this build does not know: it was written by a newer build.
        case unknownMigrations([String])
        /// The database lacks known migrations that come before ones it has: the list was not appended to.
        case outOfOrder(missing: [String])

        public var description: String {
            switch self {
            case .unknownMigrations(let names):
                "the database has migrations this build does not know (\(names.joined(separator: ", "))): "
                    + "it was written by a newer version of bgemu; refusing to start"
            case .outOfOrder(let missing):
                "migrations \(missing.joined(separator: ", ")) are missing before ones already applied: "
                    + "migrations are append-only"
            }
        }
    }

    /// The migrations, in order.
    public private(set) var migrations: [Migration] = []

    public init() {}

    /// The names of the migrations, in order.
    public var names: [String] { migrations.map(\.name) }

    /// Appends a migration. Names must be unique; `body` runs inside a transaction.
    public mutating func registerMigration(_ name: String, _ body: @escaping @Sendable (SQLiteConnection) throws -> Void) {
        precondition(!names.contains(name), "migration \(name) is registered twice")
        migrations.append(Migration(name: name, body: body))
    }

    /// The names of the migrations the database has applied, in the order they were applied.
    public func appliedMigrations(_ database: Database) throws -> [String] {
        try database.writeWithoutTransaction { try Self.applied(in: $0) }
    }

    /// Applies, in order, each migration the database has not applied yet; answers the names applied now.
    ///
    /// Each migration runs in an immediate transaction that also records it, so a crash leaves the database at
    /// a migration boundary, and a second process migrating the same file at once waits and then skips it.
    @discardableResult
    public func migrate(_ database: Database) throws -> [String] {
        try database.writeWithoutTransaction { connection in
            try check(applied: Self.applied(in: connection))
            var appliedNow: [String] = []
            for migration in migrations {
                let done = try connection.transaction(.immediate) { () -> Bool in
                    // Checked again inside the write lock: another process may have applied it meanwhile.
                    let applied = try Self.applied(in: connection)
                    try check(applied: applied)
                    guard !applied.contains(migration.name) else { return false }
                    // Created with the first migration, in its transaction: a crash leaves an empty database.
                    try connection.execute(
                        "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL) STRICT")
                    try migration.body(connection)
                    try connection.execute(
                        "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                        [migration.name, StorageDate.text(Date())])
                    return true
                }
                if done { appliedNow.append(migration.name) }
            }
            return appliedNow
        }
    }

    /// Throws unless `applied` is a prefix of the known names.
    private func check(applied: [String]) throws {
        let known = names
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else { throw Failure.unknownMigrations(unknown) }
        let appliedSet = Set(applied)
        guard let last = known.lastIndex(where: appliedSet.contains) else { return }
        let missing = known[...last].filter { !appliedSet.contains($0) }
        guard missing.isEmpty else { throw Failure.outOfOrder(missing: missing) }
    }

    private static func applied(in connection: SQLiteConnection) throws -> [String] {
        let exists = try connection.scalar(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'", as: Int.self)
        guard exists == 1 else { return [] }
        return try connection.query("SELECT name FROM schema_migrations ORDER BY rowid") { try $0[0] }
    }
}
