// Writes that arrive together, committed in one transaction.
import Foundation

/// The queue of a database's grouped writes (see ``Database/writeTogether(_:)``), with a leader and followers:
/// the first thread to find no commit under way takes every write queued so far, runs each in a savepoint of one
/// transaction, commits it, and wakes the threads whose writes it carried. Writes that arrive meanwhile queue up
/// for the next leader, one of the threads waiting, so no thread runs more than one batch that is not its own.
///
/// One transaction for many writes is one `BEGIN`, one `COMMIT` and one WAL append of the pages they share, instead
/// of one each. Each write still commits before its caller returns: nothing is answered before it is durable.
// @unchecked Sendable: `state` is only touched with `condition` locked.
final class GroupCommit: @unchecked Sendable {
    /// A write waiting for its batch, and then its outcome.
    // @unchecked Sendable: `run` is the caller's closure, which may capture the caller's stack (it is made from a
    // non-escaping closure): the leader calls it, then drops it, all while the caller waits, before marking the
    // write done under the queue's lock. `outcome` is written by the leader before that, and read by the caller
    // after seeing it done under the same lock.
    final class Write: @unchecked Sendable {
        var run: ((SQLiteConnection) throws -> Void)?
        var outcome: (any Error)?
        var done = false

        init(_ run: @escaping (SQLiteConnection) throws -> Void) {
            self.run = run
        }
    }

    private struct State {
        var queued: [Write] = []
        var leading = false
    }

    private let condition = NSCondition()
    private var state = State()

    /// How many writes wait for a leader to take them.
    var queuedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.queued.count
    }

    /// Queues `write` and returns once the transaction holding it has committed (or failed), leading batches
    /// while it waits if no one else is: `commit` runs a batch (with the writer held) and answers each write's
    /// error, if any.
    func submit(_ write: Write, commit: ([Write]) -> Void) {
        condition.lock()
        state.queued.append(write)
        while !write.done {
            if state.leading {
                condition.wait()
                continue
            }
            state.leading = true
            let batch = state.queued
            state.queued = []
            condition.unlock()
            commit(batch)
            // The callers' closures go before their callers do: once a write is done, its caller's frame (which
            // the closure may point into) is gone, and releasing the closure then would free what is no longer
            // there.
            for carried in batch { carried.run = nil }
            condition.lock()
            for carried in batch { carried.done = true }
            state.leading = false
            condition.broadcast()
        }
        condition.unlock()
    }
}
