import Emulation
import Locking

/// Devices as last committed, by id, keeping the recently used ones: past `limit`, the least recently used half
/// is dropped. (Emptying it whole when full let a tenant creating devices fast evict every other tenant's hot
/// device again and again, sending their reads to SQLite.)
///
/// A cache of 1,024 devices or more is split by id into 16 shards, each with its own lock and a 16th of the
/// limit (the least recently used half of a shard goes): every command reads its device here and every commit
/// writes it, and with 16 workers one lock for all was waited for on futexes in a flood of writes.
final class DeviceCache: Sendable {
    private let shards: [Shard]

    init(limit: Int) {
        let limit = max(2, limit)
        let count = limit >= 1_024 ? 16 : 1
        shards = (0..<count).map { _ in Shard(limit: max(2, limit / count)) }
    }

    private func shard(_ id: String) -> Shard {
        shards.count == 1 ? shards[0] : shards[Int(UInt(bitPattern: id.hashValue) % UInt(shards.count))]
    }

    var count: Int { shards.reduce(0) { $0 + $1.count } }

    /// The device, marked as just used.
    func device(_ id: String) -> Device? { shard(id).device(id) }

    func remember(_ device: Device) { shard(device.id).remember(device) }

    func forget(_ id: String) { shard(id).forget(id) }

    func forgetTenant(_ tenantId: String) {
        for shard in shards { shard.forgetTenant(tenantId) }
    }

    func forgetAll() {
        for shard in shards { shard.forgetAll() }
    }
}

/// One lock's share of a ``DeviceCache``.
private final class Shard: Sendable {
    private struct Entry {
        var device: Device
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let state = PlainLock(State())
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    var count: Int { state.withLock { $0.entries.count } }

    func device(_ id: String) -> Device? {
        state.withLock { state in
            guard let index = state.entries.index(forKey: id) else { return nil }
            state.clock &+= 1
            state.entries.values[index].lastUse = state.clock  // in place: no copy of the device in and out
            return state.entries.values[index].device
        }
    }

    func remember(_ device: Device) {
        // What the cache lets go is released after the lock: freeing a device's apps, strings and timers while every
        // reader of every device waited was most of the time the lock was held (futex waits under a write flood).
        let released = state.withLock { state -> (replaced: Entry?, evicted: [Entry]) in
            state.clock &+= 1
            var evicted: [Entry] = []
            if state.entries.count >= limit, state.entries[device.id] == nil {
                // The least recently used half goes, once per limit/2 insertions. Only the use counters are sorted
                // and the evicted entries removed in place: sorting the entries themselves copied every device
                // (thousands of retains and releases) while readers waited on this lock, milliseconds each time.
                let uses = state.entries.values.map(\.lastUse).sorted()
                let cutoff = uses[uses.count - limit / 2]
                let ids = state.entries.compactMap { $0.value.lastUse < cutoff ? $0.key : nil }
                evicted.reserveCapacity(ids.count)
                for id in ids { if let entry = state.entries.removeValue(forKey: id) { evicted.append(entry) } }
            }
            let replaced = state.entries.updateValue(Entry(device: device, lastUse: state.clock), forKey: device.id)
            return (replaced, evicted)
        }
        _ = released  // freed here, after the lock
    }

    func forget(_ id: String) {
        let released = state.withLock { $0.entries.removeValue(forKey: id) }
        _ = released  // freed after the lock
    }

    func forgetTenant(_ tenantId: String) {
        let released = state.withLock { state -> [String: Entry] in
            let all = state.entries
            state.entries = all.filter { $0.value.device.tenantId != tenantId }
            return all
        }
        _ = released  // freed after the lock
    }

    func forgetAll() {
        let released = state.withLock { state -> [String: Entry] in
            defer { state.entries = [:] }
            return state.entries
        }
        _ = released  // freed after the lock
    }
}
