// Deleting the events the retention no longer keeps, in small transactions that writers wait for one at a time.
import Dispatch
import Foundation
import Synchronization

/// Prunes the event log down to an ``EventRetention``, off the request path (see ``start(every:onPass:)``).
///
/// Work is done in **batches**: each deletes at most ``batchSize`` events in one short write transaction (fewer
/// while batches take longer than ``lockBudget``; the database's ``WALCheckpointer`` checkpoints the WAL they grow,
/// outside the lock), then the pruner pauses at least as long as the batch held the write lock, so a writer waits for one batch at most and gets the
/// lock at least half the time while a large backlog is pruned. Readers never wait (WAL).
/// - By age: the oldest events by id whose wall time of writing (`recorded_at`) is before the cutoff, across
///   devices. Ids follow commit order, so the scan is a walk of the table's key from its start that stops at the
///   first younger event; an event goes once every event before it is old enough (a wall clock set back keeps a
///   few events a little longer, never deletes a young one).
/// - By count: the device that holds most over the limit (found by the index on `event_retention.held`) loses its
///   oldest events, through its index `events_by_device`.
///
/// Every batch raises the `pruned_through` watermark of each device it deleted from, in its transaction: that is
/// how a page or a resume from before the retained range is known, and answered `410`.
public final class EventPruner: Sendable {
    public let database: Database
    public let retention: EventRetention
    /// The most events one transaction deletes.
    public let batchSize: Int
    /// How long a batch should hold the write lock at most: a batch that took longer halves the next one, a batch
    /// well under it lets the next grow again (up to ``batchSize``), so that writers wait about this long at most
    /// whatever the layout of the rows (a device's events interleaved with others' cost more per row). Nil: every
    /// batch is ``batchSize``.
    public let lockBudget: Duration?
    /// The shortest pause between two batches (the pause is at least the time the last batch held the write lock).
    public let minimumPause: Duration
    private let now: @Sendable () -> Date
    /// Set by ``stop()``: the timer's loop ends, a pass ends after its current batch.
    let stopping = Atomic<Bool>(false)
    /// Whether the timer's thread runs.
    let running = Atomic<Bool>(false)
    /// Signalled by ``stop()`` to end the timer's wait at once.
    let wakeUp = DispatchSemaphore(value: 0)

    /// - Parameter now: the wall clock the age is measured on (a test moves it; nothing sleeps).
    public init(
        database: Database, retention: EventRetention, batchSize: Int = 2_000,
        lockBudget: Duration? = .milliseconds(25), minimumPause: Duration = .milliseconds(2),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        precondition(batchSize > 0, "a batch deletes at least one event")
        self.database = database
        self.retention = retention
        self.batchSize = batchSize
        self.lockBudget = lockBudget
        self.minimumPause = minimumPause
        self.now = now
    }

    /// One transaction of pruning.
    public struct Batch: Sendable, Equatable {
        /// Events deleted.
        public var events: Int
        /// How long the transaction held the write lock, from its first statement to its commit.
        public var lockHeld: Duration
    }

    /// What a pass did.
    public struct Report: Sendable, Equatable {
        public var events = 0
        public var batches = 0
        /// The longest a batch held the write lock.
        public var longestBatch: Duration = .zero
        /// The time all batches held the write lock.
        public var lockHeld: Duration = .zero
        /// How long each batch held the write lock, in order.
        public var batchLockTimes: [Duration] = []

        public init() {}

        mutating func add(_ batch: Batch) {
            events += batch.events
            batches += 1
            longestBatch = max(longestBatch, batch.lockHeld)
            lockHeld += batch.lockHeld
            batchLockTimes.append(batch.lockHeld)
        }

        /// The `q`-th percentile (nearest rank, 0...100) of ``batchLockTimes``; zero when no batch ran.
        public func batchLockTime(percentile q: Double) -> Duration {
            let sorted = batchLockTimes.sorted()
            guard !sorted.isEmpty else { return .zero }
            let rank = Int((q / 100 * Double(sorted.count)).rounded(.up))
            return sorted[min(max(rank, 1), sorted.count) - 1]
        }
    }

    /// Prunes until the log is within the retention (or `maximumBatches` are done, or ``stop()`` is called),
    /// pausing between batches; answers what was done. Blocks the calling thread: call it off the request path.
    @discardableResult
    public func prune(maximumBatches: Int = .max) throws -> Report {
        var report = Report()
        var size = lockBudget == nil ? batchSize : min(batchSize, 250)
        while report.batches < maximumBatches, !stopping.load(ordering: .relaxed) {
            guard let batch = try pruneBatch(size: size) else { break }
            report.add(batch)
            if let budget = lockBudget {
                if batch.lockHeld > budget {
                    size = max(50, size / 2)
                } else if batch.lockHeld * 2 < budget, batch.events == size {
                    size = min(batchSize, size + size / 2 + 1)
                }
            }
            Thread.sleep(forTimeInterval: max(minimumPause, batch.lockHeld).seconds)
        }
        return report
    }

    /// One batch of at most `size` events: by age first, then by count; nil when nothing is over the retention.
    func pruneBatch(size: Int) throws -> Batch? {
        if let age = retention.maximumAge,
            let batch = try pruneOldest(writtenBefore: now().addingTimeInterval(-age), size: size)
        {
            return batch
        }
        if let limit = retention.maximumPerDevice, let batch = try pruneOverLimit(limit, size: size) {
            return batch
        }
        return nil
    }

    /// Deletes up to `size` of the oldest events written before `cutoff`.
    func pruneOldest(writtenBefore cutoff: Date, size: Int) throws -> Batch? {
        let cutoffText = StorageDate.text(cutoff)
        return try timedWrite { db -> Int in
            // Texts of one fixed RFC 3339 form in UTC: they sort as the instants they name.
            let rows = try db.query(
                "SELECT id, tenant_id, device_id, recorded_at FROM events ORDER BY id LIMIT ?", [Int64(size)]
            ) { row in (id: try row.get(0, as: Int64.self), tenant: try row.get(1, as: String.self),
                        device: try row.get(2, as: String.self), recordedAt: try row.get(3, as: String.self)) }
            var through: Int64 = 0
            var devices: [DeviceKey: (count: Int64, through: Int64)] = [:]
            for row in rows {
                guard row.recordedAt < cutoffText else { break }
                through = row.id
                let key = DeviceKey(tenantId: row.tenant, deviceId: row.device)
                devices[key, default: (0, 0)].count += 1
                devices[key]?.through = row.id
            }
            guard through > 0 else { return 0 }
            try db.execute("DELETE FROM events WHERE id <= ?", [through])
            let deleted = db.changes
            for (key, pruned) in devices {
                try Self.recordPruned(pruned.count, through: pruned.through, of: key, db)
            }
            return deleted
        }
    }

    /// Deletes up to `size` of the oldest events of the device that holds most over `limit`.
    func pruneOverLimit(_ limit: Int, size: Int) throws -> Batch? {
        // Chosen on a reader, checked again inside the write.
        let chosen = try database.read { db in
            try db.queryFirst(
                "SELECT tenant_id, device_id FROM event_retention WHERE held > ? ORDER BY held DESC LIMIT 1", [Int64(limit)]
            ) { DeviceKey(tenantId: try $0.get(0), deviceId: try $0.get(1)) }
        }
        guard let key = chosen else { return nil }
        return try timedWrite { db -> Int in
            let held = try db.scalar(
                "SELECT held FROM event_retention WHERE tenant_id = ? AND device_id = ?", [key.tenantId, key.deviceId],
                as: Int64.self) ?? 0
            let excess = min(held - Int64(limit), Int64(size))
            guard excess > 0 else { return 0 }
            guard let through = try db.scalar(
                "SELECT id FROM events WHERE tenant_id = ? AND device_id = ? ORDER BY id LIMIT 1 OFFSET ?",
                [key.tenantId, key.deviceId, excess - 1], as: Int64.self)
            else {
                // Fewer events than counted (cannot happen while every append counts): count them again.
                try db.execute(
                    """
                    UPDATE event_retention SET held = (SELECT count(*) FROM events WHERE tenant_id = ?1 AND device_id = ?2)
                    WHERE tenant_id = ?1 AND device_id = ?2
                    """, [key.tenantId, key.deviceId])
                return 0
            }
            try db.execute(
                "DELETE FROM events WHERE tenant_id = ? AND device_id = ? AND id <= ?", [key.tenantId, key.deviceId, through])
            let deleted = db.changes
            try Self.recordPruned(Int64(deleted), through: through, of: key, db)
            return deleted
        }
    }

    /// A device of a tenant.
    struct DeviceKey: Hashable {
        var tenantId: String
        var deviceId: String
    }

    /// Lowers the device's count and raises its watermark, in the deleting transaction.
    private static func recordPruned(_ count: Int64, through: Int64, of key: DeviceKey, _ db: SQLiteConnection) throws {
        try db.execute(
            """
            INSERT INTO event_retention (tenant_id, device_id, held, pruned_through) VALUES (?1, ?2, 0, ?4)
            ON CONFLICT (tenant_id, device_id) DO UPDATE
                SET held = max(0, held - ?3), pruned_through = max(pruned_through, ?4)
            """, [key.tenantId, key.deviceId, count, through])
    }

    /// Runs `body` in a write transaction; answers the events it deleted and how long it held the write lock
    /// (the wait for the lock is not counted), or nil when it deleted nothing.
    private func timedWrite(_ body: (SQLiteConnection) throws -> Int) throws -> Batch? {
        let clock = ContinuousClock()
        var began: ContinuousClock.Instant?
        let deleted = try StoreFailure.mapping {
            try database.write { db in
                began = clock.now
                return try body(db)
            }
        }
        guard deleted > 0, let began else { return nil }
        return Batch(events: deleted, lockHeld: clock.now - began)
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    fileprivate var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
