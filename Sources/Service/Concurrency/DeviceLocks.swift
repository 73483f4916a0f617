import Foundation
import Locking

/// A lock per device, made when a command needs it and dropped when no command holds or waits for it: commands on
/// one device run one after the other, in the order they take the lock, while commands on different devices (and
/// different tenants) run side by side.
final class DeviceLocks: Sendable {
    private final class Entry: Sendable {
        /// Recursive, as the service's one lock was: a command that (through its handler) runs another on the
        /// same device does not deadlock on itself.
        let lock = NSRecursiveLock()
    }

    /// Each device's lock, with how many commands hold or wait for it.
    private let table = PlainLock<[String: (entry: Entry, users: Int)]>([:])

    /// Runs `body` holding the lock of the device `id`.
    func withLock<T>(_ id: String, _ body: () throws -> T) rethrows -> T {
        let entry = table.withLock { table in
            if let held = table[id] {
                table[id] = (held.entry, held.users + 1)
                return held.entry
            }
            let entry = Entry()
            table[id] = (entry, 1)
            return entry
        }
        entry.lock.lock()
        defer {
            entry.lock.unlock()
            table.withLock { table in
                guard let held = table[id] else { return }
                table[id] = held.users == 1 ? nil : (held.entry, held.users - 1)
            }
        }
        return try body()
    }

    /// How many devices have a lock now (tests: the table does not grow with every device ever written).
    var count: Int { table.withLock { $0.count } }
}
