import Emulation
import Stores

/// Puts published events back in id order before they reach live streams.
///
/// Ids are handed out in commit order by the one database writer, but the threads that committed publish
/// afterwards, in any order: the commit of 6 may be published before that of 5. A stream that sent 6 and then
/// skipped 5 as "already seen" would lose it (and a client resuming after 6 would never get it), so events are
/// held until every smaller id has been published, then released in order.
///
/// Ids are expected without holes (`AUTOINCREMENT` with a single writer hands them out so: a rolled-back
/// transaction gives its ids back). A hole means a commit whose events were not published; it is waited for until
/// ``skipStalledGap(timeout:now:)`` gives up on it, after which the events beyond it are released and the missing
/// ones, should they come, are dropped as late. They stay in the store: a client that replays from an earlier id
/// gets them.
struct EventSequencer {
    /// Every id up to this one has been released or given up on; nil until the first event, when the log's end
    /// was not known at the start.
    private(set) var watermark: Int64?
    /// Published events waiting for a smaller id, by id.
    private var pending: [Int64: RecordedEvent] = [:]
    /// Since when the releasing has been blocked by a missing id (nil: nothing pending).
    private(set) var blockedSince: ContinuousClock.Instant?
    /// Ranges of ids that will never be published (a tenant's import took them), by their first id, not yet
    /// reached by the watermark.
    private var skips: [Int64: Int64] = [:]

    /// What a step let through.
    struct Outcome {
        /// Events to deliver, in id order.
        var released: [RecordedEvent] = []
        /// Ids published again, or after they were given up on: not delivered.
        var late: [Int64] = []
        /// Ids given up on.
        var skipped: ClosedRange<Int64>?
    }

    /// - Parameter watermark: the greatest id committed before the first publish (the log's end at start-up).
    init(watermark: Int64?) {
        self.watermark = watermark
    }

    /// Whether events wait for a missing id.
    var isBlocked: Bool { !pending.isEmpty }

    /// How many events wait.
    var pendingCount: Int { pending.count }

    /// Takes published events (any order, any tenants); answers those that can now go out, in id order.
    mutating func accept(_ events: [RecordedEvent], now: ContinuousClock.Instant) -> Outcome {
        var outcome = Outcome()
        // The usual case: nothing waits, and the events follow the watermark in order. They go as they are.
        if pending.isEmpty, let start = watermark ?? events.first.map({ $0.id - 1 }),
           events.indices.allSatisfy({ events[$0].id == start + 1 + Int64($0) }), let last = events.last {
            watermark = last.id  // `blockedSince` is nil already: nothing is pending
            outcome.released = events
            return outcome
        }
        guard let first = events.map(\.id).min() else { return outcome }
        let watermark = self.watermark ?? (first - 1)
        self.watermark = watermark
        for event in events {
            if event.id <= watermark || pending[event.id] != nil {
                outcome.late.append(event.id)
            } else {
                pending[event.id] = event
            }
        }
        release(into: &outcome, now: now)
        return outcome
    }

    /// Takes note that the ids of `range` are committed but will never be published (an imported tenant's events,
    /// renumbered into them): the watermark passes them when it reaches them, without waiting for a timeout.
    mutating func skip(_ range: ClosedRange<Int64>, now: ContinuousClock.Instant) -> Outcome {
        var outcome = Outcome()
        guard let watermark else { return outcome }  // the first publish sets the watermark after them
        guard range.upperBound > watermark else { return outcome }
        skips[max(range.lowerBound, watermark + 1)] = range.upperBound
        release(into: &outcome, now: now)
        return outcome
    }

    /// Gives up on the smallest missing id(s) once releasing has been blocked for `timeout`: the events after the
    /// hole go out. Does nothing before then.
    mutating func skipStalledGap(timeout: Duration, now: ContinuousClock.Instant) -> Outcome {
        var outcome = Outcome()
        guard let since = blockedSince, now - since >= timeout, let next = pending.keys.min(), let watermark else {
            return outcome
        }
        if next > watermark + 1 { outcome.skipped = (watermark + 1)...(next - 1) }
        self.watermark = next - 1
        release(into: &outcome, now: now)
        return outcome
    }

    /// When ``skipStalledGap(timeout:now:)`` will act, if something is blocked.
    func stallDeadline(timeout: Duration) -> ContinuousClock.Instant? {
        blockedSince.map { $0 + timeout }
    }

    private mutating func release(into outcome: inout Outcome, now: ContinuousClock.Instant) {
        guard var watermark else { return }
        let before = watermark
        while true {
            if let next = pending.removeValue(forKey: watermark + 1) {
                outcome.released.append(next)
                watermark += 1
            } else if let last = skips.removeValue(forKey: watermark + 1) {
                watermark = last
            } else {
                break
            }
        }
        self.watermark = watermark
        if pending.isEmpty {
            blockedSince = nil
        } else if blockedSince == nil || watermark != before {
            blockedSince = now  // a new hole blocks from now on
        }
    }
}
