// The one owner of a database's connections: a serialised writer and a small pool of readers.
import Dispatch
import Foundation
import Synchronization

/// A database file and the connections to it, safe to share between threads.
///
/// - One **writer** connection behind ``writerLock``: every ``write(_:)`` runs alone, in a transaction that is
///   committed before it returns. With one writer, writes of this process never contend for SQLite's write lock
///   (the busy timeout is for another process, such as the `sqlite3` shell).
/// - A few read-only **reader** connections (WAL lets them read while the writer writes), each used by one
///   thread at a time. A read starts from the latest committed state: ``write(_:)`` returns only after COMMIT, and
///   every statement is reset when a read ends, so no reader keeps an old snapshot. A read inside a write on the
///   same thread uses the writer, and sees that write's changes.
/// - A `:memory:` database has no readers (each connection would be a separate database): reads take the writer.
///
/// The calls block the calling thread while SQLite works; keep the closures short.
// @unchecked Sendable: the connections are only touched under `writerLock`, or by the one thread that took a reader
// from `idleReaders` under `readerLock`.
public final class Database: @unchecked Sendable {
    /// The path of the database file.
    public let path: String
    /// Whether the database was empty when this object opened it: a file just created, or one without any schema.
    public let isFirstStart: Bool

    private let writer: SQLiteConnection
    private let writerLock = NSLock()
    /// Checkpoints the WAL off the writer's path (nil for `:memory:`).
    let checkpointer: WALCheckpointer?
    /// The thread inside a write (0: none), so that a read or write nested in it reuses the writer.
    private let writerOwner = Atomic<UInt>(0)
    /// The writes waiting to share a transaction (see ``writeTogether(_:)``).
    let groupCommit: GroupCommit

    private let readerLock = NSLock()
    private var idleReaders: [SQLiteConnection]
    /// Readers in use, by thread, so that a read nested in a read reuses its reader instead of waiting for another.
    private var busyReaders: [UInt: SQLiteConnection] = [:]
    private let readerSlots: DispatchSemaphore
    private let readerCount: Int

    /// Opens (creating it if missing) the database at `path`, with `readerCount` read-only connections besides
    /// the writer, its WAL checkpointed as `checkpointing` says. Runs no migration: see
    /// ``openDatabase(path:readerCount:checkpointing:migrator:)``.
    public convenience init(
        path: String, readerCount: Int = 2, busyTimeoutMilliseconds: Int32 = 5000, checkpointing: CheckpointPolicy = .own
    ) throws {
        try self.init(
            path: path, readerCount: readerCount, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
            groupCommit: GroupCommit.Settings(), checkpointing: checkpointing)
    }

    /// As the public initializer, with how grouped writes gather (tests shorten or lengthen the wait), and the
    /// checkpointer's limits (tests shorten them).
    init(
        path: String, readerCount: Int = 2, busyTimeoutMilliseconds: Int32 = 5000, groupCommit: GroupCommit.Settings,
        checkpointing: CheckpointPolicy = .own, checkpointLimits: WALCheckpointer.Limits = WALCheckpointer.Limits()
    ) throws {
        self.path = path
        self.groupCommit = GroupCommit(groupCommit)
        writer = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        // Litestream's own tables (`_litestream_seq`, `_litestream_lock`) do not make a database bgemu's.
        isFirstStart = try writer.scalar(
            #"SELECT count(*) FROM sqlite_master WHERE name NOT LIKE '\_litestream\_%' ESCAPE '\'"#, as: Int.self) == 0
        let inMemory = path == ":memory:" || path.isEmpty
        self.readerCount = inMemory ? 0 : max(0, readerCount)
        idleReaders = try (0..<self.readerCount).map { _ in
            try SQLiteConnection(path: path, readOnly: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
        readerSlots = DispatchSemaphore(value: self.readerCount)
        checkpointer = inMemory ? nil : WALCheckpointer(path: path, limits: checkpointLimits, policy: checkpointing)
        if let checkpointer { writer.checkpoint(by: checkpointer) }
        if checkpointing == .replicated, !inMemory {
            // The WAL a stopped service leaves is Litestream's to copy (see CheckpointPolicy).
            try writer.disableCheckpointOnClose()
            for reader in idleReaders { try reader.disableCheckpointOnClose() }
        }
    }

    deinit { checkpointer?.stop() }

    // MARK: Memory

    /// The writer's commits when ``releaseMemoryIfIdle()`` last looked; touched only with `writerLock` held.
    private var commitsSeen = -1

    /// Frees the page caches of every connection (up to 2 MiB each by SQLite's default) when nothing was committed
    /// since the previous call and no connection is in use; otherwise only notes the commits. Called every few
    /// seconds, it gives the caches back once the service has been idle for one interval: after a burst of writes,
    /// their pages stayed in the process's memory for good. Never waits: a busy writer or reader skips the release.
    /// Returns whether it released.
    @discardableResult
    public func releaseMemoryIfIdle() -> Bool {
        guard writerLock.try() else { return false }
        defer { writerLock.unlock() }
        let commits = writer.commitCount
        guard commits == commitsSeen else {
            commitsSeen = commits
            return false
        }
        var taken = 0
        defer { for _ in 0..<taken { readerSlots.signal() } }
        while taken < readerCount, readerSlots.wait(timeout: .now()) == .success { taken += 1 }
        guard taken == readerCount else { return false }
        writer.releaseCachedPages()
        readerLock.withLock { for reader in idleReaders { reader.releaseCachedPages() } }
        return true
    }

    // MARK: Reading

    /// Runs `body` with a connection that sees every write committed before the call.
    ///
    /// Each statement sees the latest committed state; for one snapshot across several statements, open a
    /// transaction inside: `try connection.transaction(.deferred) { … }`. Writing through a reader fails with
    /// `SQLITE_READONLY`.
    public func read<T>(_ body: (SQLiteConnection) throws -> T) rethrows -> T {
        let thread = currentThreadID()
        if writerOwner.load(ordering: .acquiring) == thread {
            return try body(writer)  // nested in a write on this thread: we hold the writer already
        }
        guard readerCount > 0 else { return try writeWithoutTransaction(body) }

        if let nested = readerLock.withLock({ busyReaders[thread] }) {
            return try body(nested)
        }
        readerSlots.wait()
        let reader = readerLock.withLock {
            let reader = idleReaders.removeLast()
            busyReaders[thread] = reader
            return reader
        }
        defer {
            reader.rollbackQuietly()
            reader.resetBusyStatements()
            readerLock.withLock {
                busyReaders[thread] = nil
                idleReaders.append(reader)
            }
            readerSlots.signal()
        }
        return try body(reader)
    }

    // MARK: Writing

    /// Runs `body` alone with the writer, in an immediate transaction that is committed before this returns,
    /// or rolled back if `body` throws (the error is rethrown).
    ///
    /// A write nested in a write on the same thread runs in a savepoint of the outer transaction.
    public func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writeWithoutTransaction { connection in
            try connection.transaction(.immediate) { try body(connection) }
        }
    }

    /// Whether the calling thread is inside a write (so that a write it starts nests in that transaction).
    var callerHoldsWriter: Bool { writerOwner.load(ordering: .acquiring) == currentThreadID() }

    /// Runs `body` alone with the writer, in autocommit mode: for what cannot run in a transaction
    /// (`PRAGMA foreign_keys`, `VACUUM`, a checkpoint), or for a migrator that opens its own.
    public func writeWithoutTransaction<T>(_ body: (SQLiteConnection) throws -> T) rethrows -> T {
        let thread = currentThreadID()
        if writerOwner.load(ordering: .acquiring) == thread {
            return try body(writer)
        }
        return try writerLock.withLock {
            writerOwner.store(thread, ordering: .releasing)
            defer {
                writer.resetBusyStatements()
                writerOwner.store(0, ordering: .releasing)
            }
            return try body(writer)
        }
    }

    /// Calls `observer` after every committed write transaction with how long its `COMMIT` took (the WAL append;
    /// checkpoints run off this path, on the ``WALCheckpointer``, unless the WAL passes its hard limit), on the
    /// writing thread while it still holds the writer, so it must be quick. Replaces an earlier observer. Storage
    /// knows no metrics library: the caller counts.
    public func observeCommits(_ observer: @escaping @Sendable (Duration) -> Void) {
        writerLock.withLock { writer.commitObserver = observer }
    }

    // MARK: Health

    /// Whether the database answers a query (readiness): reads the schema, so the file must be readable.
    public func ping() -> Bool {
        (try? read { try $0.scalar("SELECT count(*) FROM sqlite_master", as: Int.self) }) != nil
    }

    /// Closes every connection once the reads and the write in progress are done; later calls fail with
    /// `SQLITE_MISUSE` (and ``ping()`` answers false). Closing also happens when the object is released.
    ///
    /// The writer closes last: the last connection to close checkpoints the WAL into the database file and
    /// removes it, which a read-only reader cannot do (except under ``CheckpointPolicy/replicated``, where the WAL
    /// is left to Litestream).
    public func close() {
        checkpointer?.stop()
        for _ in 0..<readerCount { readerSlots.wait() }
        readerLock.withLock { idleReaders.forEach { $0.close() } }
        for _ in 0..<readerCount { readerSlots.signal() }
        writerLock.withLock { writer.close() }
    }
}

/// An identifier of the calling thread, never 0.
private func currentThreadID() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}
