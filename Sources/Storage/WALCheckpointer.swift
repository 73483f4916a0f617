// Copying the write-ahead log into the database file off the writer's path.
import CSQLite
import Dispatch
import Synchronization

/// Checkpoints a database's WAL from a queue and connection of its own, so that no commit pays for the copy.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1,000 pages: that writer copies
/// the pages into the database file and syncs it, several milliseconds, while every other write waits for the
/// lock it holds. Here the writer's WAL hook only asks (``walGrew(to:)``), and a serial dispatch queue runs a
/// `PASSIVE` checkpoint, which waits for no one and blocks no one.
///
/// **How often.** SQLite writes the WAL from its first frame again only when a write begins with every frame
/// already in the database file, which a copy made beside a steady flood of writes never achieves (the writer
/// appends while it copies): under a flood the WAL grows to ``Limits/hardLimit``, where the writer checkpoints
/// inline and it starts over. It asks each time the WAL has grown by ``Limits/threshold`` pages (not after every
/// commit: that copied a batch's few hot pages and synced the file about a thousand times a second), and after every
/// commit only past ``Limits/restartLength``, so that the copy is close behind the writer when it reaches the hard
/// limit and the inline checkpoint there has only the last frames to copy. Finishing the copy with the writer held
/// was dropped: its two syncs held every write while the disk was busy (the figures of both are in the README's
/// "Performance").
///
/// Should the WAL reach ``Limits/hardLimit`` pages (a flood of writes, readers keeping old pages in use, the queue
/// stalled), the writer checkpoints itself inline, as SQLite would have.
///
/// Under ``CheckpointPolicy/replicated`` (Litestream's checkpoints) it asks for none: only the inline one past the
/// hard limit is left, PASSIVE as every checkpoint here.
final class WALCheckpointer: Sendable {
    /// When checkpoints are asked for, in WAL pages.
    struct Limits: Sendable {
        /// Pages written since a checkpoint was last asked for after which the next is (SQLite's automatic
        /// checkpoint's length).
        var threshold: Int32 = 1_000
        /// The length past which a checkpoint is asked for after every commit.
        var restartLength: Int32 = 16_000
        /// The length at which the writer checkpoints inline, and the WAL starts over.
        var hardLimit: Int32 = 20_000

        /// Whether a commit that left the WAL `pages` long asks for a checkpoint, given the length at which one was
        /// last asked for (`askedAt`, updated: a shorter WAL has started over).
        func asks(at pages: Int32, askedAt: inout Int32) -> Bool {
            if pages < askedAt { askedAt = 0 }
            guard pages >= askedAt + threshold || pages >= restartLength else { return false }
            askedAt = pages
            return true
        }
    }

    let limits: Limits
    /// Whether bgemu checkpoints from its queue (``CheckpointPolicy/own``) or only past the hard limit.
    let policy: CheckpointPolicy
    private let path: String
    private let queue = DispatchQueue(label: "bgemu.wal-checkpointer")
    /// Whether a checkpoint is queued and not started yet.
    private let pending = Atomic<Bool>(false)
    /// The WAL's length when a checkpoint was last asked for (touched by the writer's hook only).
    private let askedAt = Atomic<Int32>(0)
    /// The queue's connection, opened at the first checkpoint; nil once stopped.
    private let connection = Mutex<(SQLiteConnection?, stopped: Bool)>((nil, false))
    /// Checkpoints run from the queue (tests, metrics).
    let runs = Atomic<Int>(0)
    /// Checkpoints the writer ran inline, past the hard limit (tests, metrics).
    let inlineRuns = Atomic<Int>(0)

    init(path: String, limits: Limits = Limits(), policy: CheckpointPolicy = .own) {
        precondition(0 < limits.threshold && limits.threshold <= limits.restartLength && limits.restartLength <= limits.hardLimit)
        self.path = path
        self.limits = limits
        self.policy = policy
    }

    /// Called by the writer's WAL hook after a commit, with the WAL's length in pages.
    func walGrew(to pages: Int32) {
        guard policy == .own else { return }  // Litestream's checkpoints, not ours
        var asked = askedAt.load(ordering: .relaxed)
        let asks = limits.asks(at: pages, askedAt: &asked)
        askedAt.store(asked, ordering: .relaxed)
        guard asks, !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
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
                try state.0?.checkpointPassively()
                runs.add(1, ordering: .relaxed)
            } catch let error as SQLiteError where error.resultCode == SQLITE_BUSY {
                return  // the writer checkpointing inline, at the hard limit
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
            guard let context else { return SQLITE_OK }
            let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
            if pages >= checkpointer.limits.hardLimit {
                // PASSIVE: never waits, for this process's readers or Litestream's read lock (see CheckpointPolicy).
                sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                checkpointer.inlineRuns.add(1, ordering: .relaxed)
            } else {
                checkpointer.walGrew(to: pages)
            }
            return SQLITE_OK
        }
    }
}
