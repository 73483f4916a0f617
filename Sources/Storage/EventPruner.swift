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
/// - By count: the devices over the limit, listed by one scan of `event_counts` on a reader (up to
///   ``candidatesPerScan``, most over first; no index on the count, which every append would write), lose their
///   oldest events in turn, through `events_by_device`; the list is scanned again once it is used up. Counting is
///   switched on first if it is off (``EventCounts/prepare(_:counting:)``), so the counts are right without the
///   service's startup call too.
///
/// Every batch raises, in its transaction, the watermark of each device it deleted from (`event_watermarks`) and of
/// its tenant (`tenant_event_watermarks`): that is how a page or a resume from before the retained range is known,
/// and answered `410`. It lowers the devices' counts while counting is on.
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
    /// How many devices over the limit one scan of `event_counts` lists, most over first.
    static let candidatesPerScan = 256

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
        var overLimit: [DeviceKey] = []  // the devices of the last scan not pruned down yet, most over first
        // Once a pass, not once a batch: it takes the writer, if only to read the flag.
        if retention.maximumPerDevice != nil { try EventCounts.prepare(database, counting: true) }
        while report.batches < maximumBatches, !stopping.load(ordering: .relaxed) {
            guard let batch = try pruneBatch(size: size, overLimit: &overLimit) else { break }
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

    /// One batch of at most `size` events: by age first, then by count (from `overLimit`, the list of the devices
    /// over the limit that the batches by count go through); nil when nothing is over the retention.
    func pruneBatch(size: Int, overLimit: inout [DeviceKey]) throws -> Batch? {
        if let age = retention.maximumAge,
            let batch = try pruneOldest(writtenBefore: now().addingTimeInterval(-age), size: size)
        {
            return batch
        }
        if let limit = retention.maximumPerDevice, let batch = try pruneOverLimit(limit, size: size, from: &overLimit) {
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
            if try EventCounts.isCounting(db) {
                for (key, pruned) in devices {
                    try EventCounts.subtract(pruned.count, tenantId: key.tenantId, deviceId: key.deviceId, db)
                }
            }
            try Self.raiseWatermarks(devices.mapValues(\.through), db)
            return deleted
        }
    }

    /// Deletes up to `size` of the oldest events of the first device of `candidates` still over `limit`, dropping
    /// from the list the devices it finds within the limit (or brings within it); lists them again by a scan of
    /// `event_counts` when the list is used up. Nil when a new list has nothing to prune. Counting is on (``prune``
    /// switched it on); a batch that finds it switched off meanwhile deletes nothing.
    func pruneOverLimit(_ limit: Int, size: Int, from candidates: inout [DeviceKey]) throws -> Batch? {
        var scanned = false
        while true {
            if candidates.isEmpty {
                guard !scanned else { return nil }  // every device of a new list was within the limit by now
                scanned = true
                // On a reader, off the writer; each device is checked again inside its write.
                candidates = try StoreFailure.mapping {
                    try database.read { db in
                        try db.query(EventCounts.Statement.overLimit, [Int64(limit), Int64(Self.candidatesPerScan)]) {
                            DeviceKey(tenantId: try $0.get(0), deviceId: try $0.get(1))
                        }
                    }
                }
                guard !candidates.isEmpty else { return nil }
            }
            let key = candidates[0]
            var left: Int64 = 0  // over the limit after this batch
            let batch = try timedWrite { db -> Int in
                guard try EventCounts.isCounting(db) else { return 0 }  // switched off meanwhile: no count to go by
                let excess = try EventCounts.held(tenantId: key.tenantId, deviceId: key.deviceId, db) - Int64(limit)
                guard excess > 0 else { return 0 }
                guard let through = try db.scalar(
                    "SELECT id FROM events WHERE tenant_id = ? AND device_id = ? ORDER BY id LIMIT 1 OFFSET ?",
                    [key.tenantId, key.deviceId, min(excess, Int64(size)) - 1], as: Int64.self)
                else {
                    // Fewer events than counted (cannot happen while every append counts): count them again.
                    try db.execute(EventCounts.Statement.recountDevice, [key.tenantId, key.deviceId])
                    return 0
                }
                try db.execute(
                    "DELETE FROM events WHERE tenant_id = ? AND device_id = ? AND id <= ?",
                    [key.tenantId, key.deviceId, through])
                let deleted = db.changes
                try EventCounts.subtract(Int64(deleted), tenantId: key.tenantId, deviceId: key.deviceId, db)
                try Self.raiseWatermarks([key: through], db)
                left = excess - Int64(deleted)
                return deleted
            }
            if left <= 0 { candidates.removeFirst() }
            if let batch { return batch }
        }
    }

    /// A device of a tenant.
    struct DeviceKey: Hashable {
        var tenantId: String
        var deviceId: String
    }

    /// Raises the watermark of each device to the greatest id pruned from it (`through`), and its tenant's with
    /// it, in the deleting transaction: primary-key upserts, a row only for what was pruned from.
    private static func raiseWatermarks(_ through: [DeviceKey: Int64], _ db: SQLiteConnection) throws {
        var tenants: [String: Int64] = [:]
        for (key, id) in through {
            try db.execute(Statement.raiseDeviceWatermark, [key.tenantId, key.deviceId, id])
            tenants[key.tenantId] = max(tenants[key.tenantId] ?? 0, id)
        }
        for (tenantId, id) in tenants {
            try db.execute(Statement.raiseTenantWatermark, [tenantId, id])
        }
    }

    /// The watermark upserts, for the tests that check them.
    enum Statement {
        static let raiseDeviceWatermark = """
            INSERT INTO event_watermarks (tenant_id, device_id, pruned_through) VALUES (?1, ?2, ?3)
            ON CONFLICT (tenant_id, device_id) DO UPDATE SET pruned_through = max(pruned_through, excluded.pruned_through)
            """
        static let raiseTenantWatermark = """
            INSERT INTO tenant_event_watermarks (tenant_id, pruned_through) VALUES (?1, ?2)
            ON CONFLICT (tenant_id) DO UPDATE SET pruned_through = max(pruned_through, excluded.pruned_through)
            """
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
