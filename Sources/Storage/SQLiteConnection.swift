// One SQLite connection: opening and configuring it, running SQL, caching statements, transactions.
import CSQLite

/// One connection to an SQLite database, used by one thread at a time.
///
/// It is deliberately not `Sendable` (as GRDB's `Database`): ``Database`` owns the connections and serialises
/// every use of each, handing one to a closure that must not let it escape.
public final class SQLiteConnection {
    /// The path it opened (`:memory:` for a private in-memory database).
    public let path: String
    /// Whether it was opened read-only.
    public let isReadOnly: Bool
    private var handle: OpaquePointer?
    private var statementCache: [String: SQLiteStatement] = [:]
    /// How many statements it has compiled, cached or not: the cache's effect is visible here.
    public private(set) var preparedStatementCount = 0
    /// Told how long each `COMMIT` of ``transaction(_:_:)`` took (for metrics); see `Database.observeCommits`.
    var commitObserver: (@Sendable (Duration) -> Void)?
    /// How many transactions ``transaction(_:_:)`` committed on this connection.
    private(set) var commitCount = 0
    /// Whether the appends on this connection (the writer) count events in `event_counts`, as ``EventCounts`` last
    /// read or switched it; nil until first needed, then read from the `settings` table. Touched only by the thread
    /// that holds the connection, as everything else here.
    var countsEvents: Bool?

    /// The kinds of `BEGIN` (https://sqlite.org/lang_transaction.html).
    public enum TransactionKind: String, Sendable {
        /// Takes locks on first use; for reads.
        case deferred = "DEFERRED"
        /// Takes the write lock at once, so the transaction cannot fail later for want of it; for writes.
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// Opens (and, unless `readOnly`, creates) the database at `path` and configures the connection:
    ///
    /// - `journal_mode=WAL` (writers): readers and the writer do not block each other, and a commit is one append;
    /// - `synchronous=NORMAL`: in WAL mode a commit is durable against a crash of the process (`kill -9`), because
    ///   the WAL is written before COMMIT returns; only a power loss or OS crash may lose the last transactions,
    ///   never corrupt the database (https://sqlite.org/pragma.html#pragma_synchronous);
    /// - `foreign_keys=ON`: `REFERENCES … ON DELETE CASCADE` is enforced (SQLite leaves it off by default);
    /// - `busy_timeout`: another process's lock is waited for rather than failing at once with `SQLITE_BUSY`.
    public init(path: String, readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 5000) throws {
        self.path = path
        self.isReadOnly = readOnly
        // NOMUTEX: SQLite's own per-connection mutex is redundant, since our owner serialises each connection.
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) }
            sqlite3_close_v2(connection)
            throw SQLiteError(extendedResultCode: code, message: message.map { "\($0): \(path)" })
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
        do {
            if !readOnly, path != ":memory:", path != "" {
                let mode: String? = try makeStatement("PRAGMA journal_mode=WAL").queryFirst { try $0[0] }
                guard mode?.lowercased() == "wal" else {
                    throw SQLiteError(extendedResultCode: SQLITE_ERROR, message: "could not enable WAL (got \(mode ?? "nil"))")
                }
            }
            try execute("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON")
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Installs `hook` as the connection's WAL hook (`sqlite3_wal_hook`), called after each commit with the WAL's
    /// size in pages; `context` must outlive the connection.
    func installWALHook(
        _ context: UnsafeMutableRawPointer?,
        _ hook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32
    ) {
        guard let handle else { return }
        sqlite3_wal_hook(handle, hook, context)
    }

    /// Runs a `PASSIVE` checkpoint of the WAL (`sqlite3_wal_checkpoint_v2`): copies into the database file every
    /// frame no reader still needs, waiting for no one. `SQLITE_BUSY` (another checkpoint under way) is thrown.
    func checkpointPassively() throws {
        let handle = try openHandle()
        let code = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(extendedResultCode: code, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// Makes ``close()`` leave the WAL as it is when this is the last connection to the file, instead of
    /// checkpointing it into the database file and removing it (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`).
    func disableCheckpointOnClose() throws {
        let handle = try openHandle()
        let code = bgemu_sqlite3_no_checkpoint_on_close(handle)
        guard code == SQLITE_OK else {
            throw SQLiteError(extendedResultCode: code, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// Finalises the cached statements and closes the connection; any later use throws `SQLITE_MISUSE`.
    public func close() {
        statementCache.removeAll()
        if let handle {
            // v2: statements the caller still holds turn the connection into a zombie freed with the last of them.
            sqlite3_close_v2(handle)
        }
        handle = nil
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { handle == nil }

    /// Frees what the connection's page cache holds and no statement uses (`sqlite3_db_release_memory`): on an idle
    /// connection, the whole cache, read again from the file (or the system's cache of it) when next needed.
    func releaseCachedPages() {
        if let handle { _ = sqlite3_db_release_memory(handle) }
    }

    /// Bytes the page cache holds now (`SQLITE_DBSTATUS_CACHE_USED`).
    func cacheUsedBytes() throws -> Int {
        let handle = try openHandle()
        var current: Int32 = 0, highest: Int32 = 0
        _ = sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    private func openHandle(sql: String? = nil) throws -> OpaquePointer {
        guard let handle else {
            throw SQLiteError(extendedResultCode: SQLITE_MISUSE, message: "the connection is closed", sql: sql)
        }
        return handle
    }

    // MARK: Statements

    /// Runs one or more `;`-separated statements without arguments (a migration script, a pragma).
    public func execute(_ sql: String) throws {
        let handle = try openHandle(sql: sql)
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        defer { sqlite3_free(errorMessage) }
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            throw SQLiteError(extendedResultCode: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// Runs one statement with `arguments`, through the statement cache.
    public func execute(_ sql: String, _ arguments: SQLiteArguments) throws {
        try cachedStatement(sql).execute(arguments)
    }

    /// Runs one query through the statement cache and maps every row.
    public func query<T>(
        _ sql: String, _ arguments: SQLiteArguments = [], _ transform: (SQLiteRow) throws -> T
    ) throws -> [T] {
        try cachedStatement(sql).query(arguments, transform)
    }

    /// Runs one query through the statement cache and maps its first row; nil when there is none.
    public func queryFirst<T>(
        _ sql: String, _ arguments: SQLiteArguments = [], _ transform: (SQLiteRow) throws -> T
    ) throws -> T? {
        try cachedStatement(sql).queryFirst(arguments, transform)
    }

    /// The first column of the first row as `T`; nil when there is no row (or the value is NULL and `T` optional).
    public func scalar<T: SQLiteValueConvertible>(
        _ sql: String, _ arguments: SQLiteArguments = [], as type: T.Type = T.self
    ) throws -> T? {
        try queryFirst(sql, arguments) { try $0.get(0, as: T.self) }
    }

    /// The prepared statement for `sql`, compiled on first use and then reused: the cache is keyed by the exact SQL
    /// text, so pass constant SQL with `?` parameters, never values spliced into it.
    public func cachedStatement(_ sql: String) throws -> SQLiteStatement {
        if let statement = statementCache[sql] { return statement }
        let statement = try makeStatement(sql)
        statementCache[sql] = statement
        return statement
    }

    /// A new prepared statement for `sql`, not cached: finalised when the caller drops it.
    public func makeStatement(_ sql: String) throws -> SQLiteStatement {
        let statement = try SQLiteStatement(connection: openHandle(sql: sql), sql: sql)
        preparedStatementCount += 1
        return statement
    }

    /// How many statements the cache holds.
    public var cachedStatementCount: Int { statementCache.count }

    /// Finalises the cached statements.
    public func clearStatementCache() { statementCache.removeAll() }

    /// Resets every statement of the connection that is still stepping, so that none keeps a read transaction
    /// (a stale snapshot) open once its user is done. ``Database`` calls it when it takes a connection back.
    func resetBusyStatements() {
        guard let handle else { return }
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            if sqlite3_stmt_busy(current) != 0 { sqlite3_reset(current) }
            statement = sqlite3_next_stmt(handle, current)
        }
    }

    // MARK: Facts

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { handle.map { Int(sqlite3_changes64($0)) } ?? 0 }
    /// Rows changed by every INSERT, UPDATE and DELETE since the connection opened (not those of triggers or
    /// foreign key actions, nor `sqlite_sequence`'s).
    public var totalChanges: Int { handle.map { Int(sqlite3_total_changes64($0)) } ?? 0 }
    /// The rowid of the last successful INSERT.
    public var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }
    /// Whether a transaction is open (the connection is not in autocommit mode).
    public var isInTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    // MARK: Transactions

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws (and the error rethrown).
    ///
    /// Inside an open transaction it nests as a savepoint, so that `body` is still all-or-nothing.
    ///
    /// `BEGIN`, `COMMIT`, the savepoints and `ROLLBACK` go through the statement cache instead of being compiled
    /// anew for every transaction (2 % of a device creation's instructions).
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        try execute("BEGIN \(kind.rawValue) TRANSACTION", [])
        let result: T
        do {
            result = try body()
            // Some errors (SQLITE_FULL, IOERR, BUSY…) make SQLite roll back by itself; if `body` caught one and
            // carried on, its later statements ran in autocommit mode. Say so instead of "no transaction is active".
            guard isInTransaction else {
                throw SQLiteError(
                    extendedResultCode: SQLITE_ABORT, message: "the transaction was rolled back by SQLite during its body")
            }
            let start = ContinuousClock.now
            try execute("COMMIT TRANSACTION", [])
            commitCount &+= 1
            commitObserver?(ContinuousClock.now - start)
        } catch {
            rollbackQuietly()
            throw error
        }
        return result
    }

    /// Runs `body` in a savepoint of the open transaction (or in a transaction when there is none).
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        guard isInTransaction else { return try transaction(.immediate, body) }
        try execute("SAVEPOINT bgemu", [])
        let result: T
        do {
            result = try body()
        } catch {
            // ROLLBACK TO keeps the savepoint on the stack; RELEASE pops it. Either fails when SQLite already rolled
            // the whole transaction back, which is fine: the body's error is the one to report.
            try? execute("ROLLBACK TRANSACTION TO SAVEPOINT bgemu", [])
            try? execute("RELEASE SAVEPOINT bgemu", [])
            throw error
        }
        try execute("RELEASE SAVEPOINT bgemu", [])
        return result
    }

    /// Rolls back the open transaction, if any; a failure leaves nothing better to do.
    func rollbackQuietly() {
        guard isInTransaction else { return }
        resetBusyStatements()
        try? execute("ROLLBACK TRANSACTION", [])
    }
}

@available(*, unavailable, message: "a connection is used by one thread at a time: go through Database")
extension SQLiteConnection: Sendable {}
