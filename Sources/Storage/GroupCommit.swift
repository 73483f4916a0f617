// Writes that arrive together, committed in one transaction.
import Foundation

/// The queue of a database's grouped writes (see ``Database/writeTogether(_:)``), with a leader and followers:
/// the first thread to find no commit under way takes every write queued so far, runs each in a savepoint of one
/// transaction, commits it, and wakes the threads whose writes it carried. Writes that arrive meanwhile queue up
/// for the next leader: the leader hands the lead to the thread of the oldest of them, so no thread runs more than
/// one batch that is not its own.
///
/// Each waiting thread sleeps on a semaphore of its own and is woken once, when its write is done or when it is to
/// lead: a commit wakes the threads it answers, not every thread waiting (with many workers waiting, waking all of
/// them after each commit cost more than the commit).
///
/// One transaction for many writes is one `BEGIN`, one `COMMIT` and one WAL append of the pages they share, instead
/// of one each. Each write still commits before its caller returns: nothing is answered before it is durable.
// @unchecked Sendable: `state` is only touched with `lock` held.
final class GroupCommit: @unchecked Sendable {
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
    }

    private let lock = NSLock()
    private var state = State()

    /// How many writes wait for a leader to take them.
    var queuedCount: Int {
        lock.withLock { state.queued.count }
    }

    /// Queues `write` and returns once the transaction holding it has committed (or failed), leading one batch
    /// while it waits if no one else is: `commit` runs a batch (with the writer held) and answers each write's
    /// error, if any.
    func submit(_ write: Write, commit: ([Write]) -> Void) {
        let leadsNow = lock.withLock {
            state.queued.append(write)
            if state.leading { return false }
            state.leading = true
            return true
        }
        if !leadsNow {
            write.wake.wait()
            if write.done { return }
            // Woken to lead: the lead was handed over with `leading` still set, and this write is still queued.
        }
        let batch = lock.withLock {
            defer { state.queued = [] }
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
        for carried in batch where carried !== write {
            carried.done = true
            carried.wake.signal()
        }
        write.done = true
        next?.wake.signal()
    }
}
