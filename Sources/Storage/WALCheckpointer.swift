// Copying the write-ahead log into the database file off the writer's path.
import CSQLite
import Dispatch
import Synchronization

/// Checkpoints a database's WAL from a queue and connection of its own, so that no commit pays for the copy.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1,000 pages: that writer copies
/// the pages into the database file and syncs it, several milliseconds, while every other write waits for the
/// lock it holds. Here the writer's WAL hook only asks (``walGrew(to:)``), each time the WAL has grown by
/// ``Limits/threshold`` pages, and a serial dispatch queue runs a `PASSIVE` checkpoint, which waits for no one and
/// blocks no one.
///
/// **Starting the WAL over.** SQLite writes the WAL from its first frame again only when a write begins with every
/// frame already in the database file. A copy made beside a steady flood of writes never gets there (the writer
/// appends while it copies), and until 26 November 2026 the hook asked after every commit once the WAL was past
/// the threshold: in a flood of clock advances, about a thousand checkpoints a second, each copying a batch's few
/// pages and syncing the file, the WAL's hot pages copied again for every batch, and the WAL at its hard limit
/// (80 MB) for good. Now, once the WAL is ``Limits/restartLength`` pages long, the checkpointer copies again until
/// the writer has added few frames since (``Limits/finishingFrames``), then finishes with the writer held
/// (``finishesWith(_:)``): those frames and the syncs, about 1–3 ms during which writes queue, once per
/// 16,000 frames; the next write starts the WAL over. Measured on 2 cores in three interleaved rounds: the
/// checkpointer's CPU per clock advance from 11–16 µs to 5 µs, and 15,000–16,800 advances a second against
/// 13,600–14,100.
///
/// Should the WAL grow past ``Limits/hardLimit`` pages all the same (the queue stalled, readers kept old pages in
/// use), the writer checkpoints itself inline, as SQLite would have.
final class WALCheckpointer: Sendable {
    /// When checkpoints are asked for and finished, in WAL pages.
    struct Limits: Sendable {
        /// Pages written since a checkpoint was last asked for after which the next is (SQLite's automatic
        /// checkpoint's length).
        var threshold: Int32 = 1_000
        /// The length after which a checkpoint finishes with the writer held, so that the WAL starts over.
        var restartLength: Int32 = 16_000
        /// The frames a copy with the writer held may be left, above which the checkpointer copies again first.
        var finishingFrames: Int32 = 64
        /// The most copies made to bring the frames left down to `finishingFrames` (a flood of writes may outpace
        /// them).
        var catchUpCopies = 3
        /// The length after which the writer checkpoints inline.
        var hardLimit: Int32 = 20_000
    }

    let limits: Limits
    private let path: String
    private let queue = DispatchQueue(label: "bgemu.wal-checkpointer")
    /// Whether a checkpoint is queued or under way.
    private let pending = Atomic<Bool>(false)
    /// The WAL's length when a checkpoint was last asked for (touched by the writer's hook only).
    private let askedAt = Atomic<Int32>(0)
    /// The WAL's length after the last commit.
    private let length = Atomic<Int32>(0)
    /// The queue's connection, opened at the first checkpoint; nil once stopped.
    private let connection = Mutex<(SQLiteConnection?, stopped: Bool)>((nil, false))
    /// Runs a checkpoint with the writer held (see ``finishesWith(_:)``).
    private let finisher = Mutex<(@Sendable () throws -> Void)?>(nil)
    /// Checkpoints run (tests, metrics).
    let runs = Atomic<Int>(0)
    /// Checkpoints finished with the writer held.
    let finishes = Atomic<Int>(0)

    init(path: String, limits: Limits = Limits()) {
        precondition(0 < limits.threshold && limits.threshold <= limits.restartLength && limits.restartLength < limits.hardLimit)
        self.path = path
        self.limits = limits
    }

    /// Sets how a checkpoint is finished with the writer held: `finish` takes the writer (waiting for the write
    /// under way), checkpoints on it, and lets it go.
    func finishesWith(_ finish: @escaping @Sendable () throws -> Void) {
        finisher.withLock { $0 = finish }
    }

    /// Called by the writer's WAL hook after a commit, with the WAL's length in pages.
    func walGrew(to pages: Int32) {
        length.store(pages, ordering: .relaxed)
        var asked = askedAt.load(ordering: .relaxed)
        if pages < asked {  // the WAL started over
            asked = 0
            askedAt.store(0, ordering: .relaxed)
        }
        guard pages >= asked + limits.threshold, !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        askedAt.store(pages, ordering: .relaxed)
        queue.async { [self] in
            checkpoint()
            pending.store(false, ordering: .releasing)
        }
    }

    /// Waits for a checkpoint under way, then closes the connection; later requests do nothing.
    func stop() {
        queue.sync {
            connection.withLock { state in
                state.0?.close()
                state = (nil, true)
            }
            finisher.withLock { $0 = nil }
        }
    }

    private func checkpoint() {
        guard var copied = copy(), copied >= limits.restartLength, let finish = finisher.withLock({ $0 }) else { return }
        for _ in 0..<limits.catchUpCopies where length.load(ordering: .relaxed) - copied > limits.finishingFrames {
            guard let again = copy() else { return }
            copied = again
        }
        // A failure leaves the WAL as it was, to be tried again a threshold's worth of pages later.
        if (try? finish()) != nil { finishes.add(1, ordering: .relaxed) }
    }

    /// A `PASSIVE` checkpoint on the checkpointer's connection: the WAL's length it copied up to, or nil.
    private func copy() -> Int32? {
        connection.withLock { state -> Int32? in
            guard !state.stopped else { return nil }
            do {
                if state.0 == nil { state.0 = try SQLiteConnection(path: path) }
                let length = try state.0?.checkpointPassively().walFrames
                runs.add(1, ordering: .relaxed)
                return length
            } catch let error as SQLiteError where error.resultCode == SQLITE_BUSY {
                return nil  // the writer checkpointing inline, past the hard limit
            } catch {
                state.0?.close()
                state.0 = nil  // opened again next time; meanwhile the hard limit bounds the WAL
                return nil
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
                sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            } else {
                checkpointer.walGrew(to: pages)
            }
            return SQLITE_OK
        }
    }
}
