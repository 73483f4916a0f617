import Emulation
import Synchronization

/// Reads devices of a tenant and changes them one at a time, so that two requests on the same device never
/// overwrite each other's change. Every change is committed before `modify` returns.
public final class DeviceService: Sendable {
    let store: any DeviceStore
    /// Serializes read-modify-write cycles (SQLite has a single writer anyway).
    private let writeLock = Mutex<Void>(())

    public init(store: any DeviceStore) { self.store = store }

    /// The tenant's device, or a `notFound` error (also for another tenant's device: no existence leak).
    func device(_ id: String, tenantId: String) throws -> Device {
        guard let device = try store.device(id: id, tenantId: tenantId) else {
            throw EmulationError.notFound(kind: "device", id: id)
        }
        return device
    }

    func insert(_ device: Device) throws { try store.insert(device) }

    func list(tenantId: String, cursor: String?, limit: Int) throws -> Page<Device> {
        try store.devices(tenantId: tenantId, after: cursor, limit: limit)
    }

    func delete(_ id: String, tenantId: String) throws {
        let deleted = try writeLock.withLock { _ in try store.delete(id: id, tenantId: tenantId) }
        if !deleted { throw EmulationError.notFound(kind: "device", id: id) }
    }

    /// Applies `change` to the device and stores the result; nothing is stored when `change` throws.
    func modify<T>(_ id: String, tenantId: String, _ change: (inout Device) throws -> T) throws -> (Device, T) {
        try writeLock.withLock { _ in
            var device = try self.device(id, tenantId: tenantId)
            let result = try change(&device)
            guard try store.update(device) else { throw EmulationError.notFound(kind: "device", id: id) }
            return (device, result)
        }
    }
}
