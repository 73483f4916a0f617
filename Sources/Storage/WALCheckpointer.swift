// Copying the write-ahead log into the database file off the writer's path.
import CSQLite
import Dispatch
import Synchronization

/// Checkpoints a database's WAL from a queue and connection of its own, so that no commit pays for one.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1,000 pages: that writer copies
/// the pages into the database file and syncs it, several milliseconds, while every other write waits for the
/// lock it holds. Here the writer's WAL hook only asks (``walGrew(to:)``), and a serial dispatch queue runs a
/// `PASSIVE` checkpoint, which waits for no one and blocks no one. Should the WAL grow past ``hardLimit`` pages all
/// the same (the queue stalled, readers kept old pages in use), the writer checkpoints itself, as SQLite would have.
final class WALCheckpointer: Sendable {
    /// WAL pages after which a checkpoint is asked for (SQLite's automatic default). 4,000 gave 15 % more device
    /// creations a second at 64 connections, but another tenant's p99 under a flood of writes went from 1.4–1.6 ×
    /// its quiet p99 to 1.9–2.3 × (a larger checkpoint holds the disk longer): the noisy neighbour's bound wins.
    static let threshold: Int32 = 1_000
    /// WAL pages after which the writer checkpoints inline.
    static let hardLimit: Int32 = 20_000

    private let path: String
    private let queue = DispatchQueue(label: "bgemu.wal-checkpointer")
    /// Whether a checkpoint is queued and not started yet.
    private let pending = Atomic<Bool>(false)
    /// The queue's connection, opened at the first checkpoint; nil once stopped.
    private let connection = Mutex<(SQLiteConnection?, stopped: Bool)>((nil, false))
    /// Checkpoints run (tests, metrics).
    let runs = Atomic<Int>(0)

    init(path: String) {
        self.path = path
    }

    /// Called by the writer's WAL hook after a commit, with the WAL's size in pages.
    func walGrew(to pages: Int32) {
        guard pages >= Self.threshold, !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            pending.store(false, ordering: .releasing)
            checkpoint()
        }
    }

    /// Waits for a checkpoint under way, then closes the connection; later requests do nothing.
    func stop() {
        queue.sync {
            connection.withLock { state in
                state.0?.close()
                state = (nil, true)
            }
        }
    }

    private func checkpoint() {
        connection.withLock { state in
            guard !state.stopped else { return }
            do {
                if state.0 == nil { state.0 = try SQLiteConnection(path: path) }
                try state.0?.execute("PRAGMA wal_checkpoint(PASSIVE)")
                runs.add(1, ordering: .relaxed)
            } catch {
                state.0?.close()
                state.0 = nil  // opened again next time; meanwhile the hard limit bounds the WAL
            }
        }
    }
}

extension SQLiteConnection {
    /// Hands WAL checkpoints to `checkpointer` instead of running them in the commit that crosses SQLite's
    /// threshold (this replaces SQLite's automatic checkpoint on this connection).
    func checkpoint(by checkpointer: WALCheckpointer) {
        let context = Unmanaged.passUnretained(checkpointer).toOpaque()
        installWALHook(context) { context, db, name, pages in
            if pages >= WALCheckpointer.hardLimit {
                sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            } else if let context {
                Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().walGrew(to: pages)
            }
            return SQLITE_OK
        }
    }
}
