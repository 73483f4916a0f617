import Emulation
import Synchronization

/// Devices as last committed, by id, keeping the recently used ones: past `limit`, the least recently used half
/// is dropped. (Emptying it whole when full let a tenant creating devices fast evict every other tenant's hot
/// device again and again, sending their reads to SQLite.)
final class DeviceCache: Sendable {
    private struct Entry {
        var device: Device
        var lastUse: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    let limit: Int

    init(limit: Int) {
        self.limit = max(2, limit)
    }

    var count: Int { state.withLock { $0.entries.count } }

    /// The device, marked as just used.
    func device(_ id: String) -> Device? {
        state.withLock { state in
            guard state.entries[id] != nil else { return nil }
            state.clock &+= 1
            state.entries[id]!.lastUse = state.clock  // in place: no copy of the device in and out
            return state.entries[id]!.device
        }
    }

    func remember(_ device: Device) {
        state.withLock { state in
            state.clock &+= 1
            if state.entries.count >= limit, state.entries[device.id] == nil {
                // The least recently used half goes, once per limit/2 insertions. Only the use counters are sorted
                // and the evicted entries removed in place: sorting the entries themselves copied every device
                // (thousands of retains and releases) while readers waited on this lock, milliseconds each time.
                let uses = state.entries.values.map(\.lastUse).sorted()
                let cutoff = uses[uses.count - limit / 2]
                let evicted = state.entries.compactMap { $0.value.lastUse < cutoff ? $0.key : nil }
                for id in evicted { state.entries.removeValue(forKey: id) }
            }
            state.entries[device.id] = Entry(device: device, lastUse: state.clock)
        }
    }

    func forget(_ id: String) {
        state.withLock { _ = $0.entries.removeValue(forKey: id) }
    }

    func forgetTenant(_ tenantId: String) {
        state.withLock { state in state.entries = state.entries.filter { $0.value.device.tenantId != tenantId } }
    }

    func forgetAll() {
        state.withLock { $0.entries.removeAll() }
    }
}
