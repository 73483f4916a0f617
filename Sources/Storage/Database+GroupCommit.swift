// Writes of several threads sharing one transaction.
import CSQLite

extension Database {
    /// Runs `body` with the writer in a transaction it may share with the writes other threads submit meanwhile
    /// (see ``GroupCommit``), and returns once that transaction has committed. `body` runs in a savepoint of it: if
    /// it throws, its changes are rolled back and its error rethrown here, and the other writes go on.
    ///
    /// `body` may run on another thread (the batch's leader) while this one waits, so it must not depend on the
    /// calling thread (its task-local values, its locks). Inside a write of this thread it nests in that
    /// transaction, as ``write(_:)`` does.
    public func writeTogether<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if callerHoldsWriter { return try write(body) }
        return try withoutActuallyEscaping(body) { body in
            var result: T?
            let write = GroupCommit.Write { connection in result = try body(connection) }
            groupCommit.submit(write) { batch in commit(batch) }
            if let error = write.outcome { throw error }
            guard let result else { preconditionFailure("a grouped write ended with neither a result nor an error") }
            return result
        }
    }

    /// Runs the batch's writes in one transaction, each in a savepoint, and commits it. A write that throws is
    /// rolled back alone; a failed commit (or a rollback SQLite made by itself) fails every write not yet failed.
    private func commit(_ batch: [GroupCommit.Write]) {
        writeWithoutTransaction { connection in
            if batch.count == 1 {  // no savepoint needed: the transaction is the write's own
                do {
                    try connection.transaction(.immediate) { try batch[0].run?(connection) }
                } catch {
                    batch[0].outcome = error
                }
                return
            }
            do {
                try connection.transaction(.immediate) {
                    for write in batch {
                        // After an error that made SQLite roll back the whole transaction, a savepoint would open
                        // a transaction of its own and commit alone: the writes left fail with the others.
                        guard connection.isInTransaction else {
                            write.outcome = SQLiteError(
                                extendedResultCode: SQLITE_ABORT, message: "the transaction was rolled back by SQLite")
                            continue
                        }
                        do {
                            try connection.savepoint { try write.run?(connection) }
                        } catch {
                            write.outcome = error
                        }
                    }
                }
            } catch {
                for write in batch where write.outcome == nil { write.outcome = error }
            }
        }
    }
}
