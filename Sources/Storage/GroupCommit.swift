// Writes that arrive together, committed in one transaction.
import Foundation

/// The queue of a database's grouped writes (see ``Database/writeTogether(_:)``), with a leader and followers:
/// the first thread to find no commit under way takes every write queued so far, runs each in a savepoint of one
/// transaction, commits it, and wakes the threads whose writes it carried. Writes that arrive meanwhile queue up
/// for the next leader: the leader hands the lead to the thread of the oldest of them, so no thread runs more than
/// one batch that is not its own.
///
/// **Gathering.** Before taking its batch, a leader waits for as many writes as the last batch carried (at most
/// ``Settings/gatherLimit``), or ``Settings/gatherTimeout``, whichever comes first, once the last batch carried
/// ``Settings/gatherAfter`` writes or more, and no more than the rate writes have been arriving at brings within
/// half the timeout. A lone writer, writes that meet now and then, or writes too far apart to fill a batch in time
/// never wait; under a flood of writes the batches grow to what arrives within the timeout.
///
/// A commit's cost is mostly per transaction (the B-tree pages it writes to the WAL, then copies in a checkpoint), so
/// larger batches cost less per write: on 2 cores, a flood of device creations went from about 2 writes a batch and
/// 300 µs of server CPU each to about 10 a batch and 145–165 µs each (with the other changes of that day), and from
/// 5,000–6,700 to 9,000–11,000 creations a second. In interleaved runs a timeout of 250 µs did worse than 500 µs
/// and 1 ms (about 7,800 against 9,400 creations a second), 1 ms did best for clock advances, and a limit of 6 or
/// 12 worse than 8.
///
/// Each waiting thread sleeps on a semaphore of its own and is woken once, when its write is done or when it is to
/// lead: a commit wakes the threads it answers, not every thread waiting (with many workers waiting, waking all of
/// them after each commit cost more than the commit).
///
/// One transaction for many writes is one `BEGIN`, one `COMMIT` and one WAL append of the pages they share, instead
/// of one each. Each write still commits before its caller returns: nothing is answered before it is durable.
// @unchecked Sendable: `state` is only touched with `lock` held.
final class GroupCommit: @unchecked Sendable {
    /// How a leader gathers its batch.
    struct Settings: Sendable {
        /// The most writes a leader waits for (it takes any number queued).
        var gatherLimit: Int = 8
        /// The longest a leader waits for them.
        var gatherTimeout: Duration = .milliseconds(1)
        /// The smallest last batch after which a leader gathers: two writes together happen by chance at a
        /// moderate rate (a wait would only delay them), three or more mean writes queue behind the commits.
        var gatherAfter: Int = 3
    }

    /// A write waiting for its batch, and then its outcome.
    // @unchecked Sendable: `run` is the caller's closure, which may capture the caller's stack (it is made from a
    // non-escaping closure): the leader calls it, then drops it, all while the caller waits, before waking the
    // caller. `outcome` and `done` are written before the caller's semaphore is signalled and read by the
    // caller after its wait returns (the semaphore orders them).
    final class Write: @unchecked Sendable {
        var run: ((SQLiteConnection) throws -> Void)?
        var outcome: (any Error)?
        fileprivate var done = false
        fileprivate let wake = DispatchSemaphore(value: 0)

        init(_ run: @escaping (SQLiteConnection) throws -> Void) {
            self.run = run
        }
    }

    private struct State {
        var queued: [Write] = []
        var leading = false
        /// The leader waiting for its batch to fill, and how many writes it waits for.
        var gathering: (leader: Write, target: Int)?
        /// How many writes the last batch carried.
        var lastBatch = 1
        /// When the last write was submitted (`DispatchTime` nanoseconds), and the mean time between submissions
        /// (an exponential moving average, a quarter weight to the newest).
        var lastArrival: UInt64 = 0
        var meanInterval: Double = 1e9
        var batches = 0
        var writes = 0
    }

    let settings: Settings
    private let lock = NSLock()
    private var state = State()

    init(_ settings: Settings = Settings()) {
        precondition(settings.gatherLimit >= 1, "a batch has at least one write")
        self.settings = settings
    }

    /// How many writes wait for a leader to take them.
    var queuedCount: Int {
        lock.withLock { state.queued.count }
    }

    /// The batches committed so far, and the writes they carried.
    var statistics: (batches: Int, writes: Int) {
        lock.withLock { (state.batches, state.writes) }
    }

    /// Queues `write` and returns once the transaction holding it has committed (or failed), leading one batch
    /// while it waits if no one else is: `commit` runs a batch (with the writer held) and answers each write's
    /// error, if any.
    func submit(_ write: Write, commit: ([Write]) -> Void) {
        let now = DispatchTime.now().uptimeNanoseconds
        let (leadsNow, filled) = lock.withLock { () -> (Bool, Write?) in
            if state.lastArrival > 0, now > state.lastArrival {
                state.meanInterval = 0.75 * state.meanInterval + 0.25 * Double(now - state.lastArrival)
            }
            state.lastArrival = max(state.lastArrival, now)
            state.queued.append(write)
            guard !state.leading else {
                guard let gathering = state.gathering, state.queued.count >= gathering.target else {
                    return (false, nil)
                }
                state.gathering = nil
                return (false, gathering.leader)
            }
            state.leading = true
            return (true, nil)
        }
        filled?.wake.signal()
        if !leadsNow {
            write.wake.wait()
            if write.done { return }
            // Woken to lead: the lead was handed over with `leading` still set, and this write is still queued.
        }
        gather(for: write)
        let batch = lock.withLock {
            defer {
                state.lastBatch = state.queued.count
                state.batches += 1
                state.writes += state.queued.count
                state.queued = []
            }
            return state.queued
        }
        commit(batch)
        // The callers' closures go before their callers do: once a write is done, its caller's frame (which the
        // closure may point into) is gone, and releasing the closure then would free what is no longer there.
        for carried in batch { carried.run = nil }
        let next = lock.withLock {
            if let oldest = state.queued.first { return Optional(oldest) }
            state.leading = false
            return nil
        }
        // The next leader first: its batch commits while this thread wakes the callers of this one (a wake-up is a
        // system call, and on a virtual machine often an interrupt to the other core: a batch of 15 took longer to
        // wake than to commit, and the writer stood idle meanwhile).
        next?.wake.signal()
        for carried in batch where carried !== write {
            carried.done = true
            carried.wake.signal()
        }
        write.done = true
    }

    /// The leader's wait for its batch: as many writes as the last batch carried (up to the limit), but no more than
    /// the rate they have been arriving at brings within half the timeout, or the timeout.
    private func gather(for leader: Write) {
        let (seconds, attoseconds) = settings.gatherTimeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        let waits = lock.withLock { () -> Bool in
            guard state.lastBatch >= settings.gatherAfter else { return false }
            // The writes the recent rate brings within half the timeout (so that most waits end filled): at a
            // moderate rate (a neighbour's paced writes) a wait would rarely fill the batch, only delay it.
            let expected = Int(min(Double(settings.gatherLimit), Double(nanoseconds) / 2 / max(1, state.meanInterval)))
            let target = min(state.lastBatch, settings.gatherLimit, state.queued.count + expected)
            guard state.queued.count < target else { return false }
            state.gathering = (leader, target)
            return true
        }
        guard waits else { return }
        guard leader.wake.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut else { return }
        let filledMeanwhile = lock.withLock { () -> Bool in
            guard state.gathering?.leader === leader else { return true }
            state.gathering = nil
            return false
        }
        // A writer filled the batch just as the wait timed out: take its signal, so the next wait is not cut short.
        if filledMeanwhile { leader.wake.wait() }
    }
}
