/// Where devices (with their apps) are kept, one document per device.
public protocol DeviceStore: Sendable {
    /// Stores a new device; `StoreError.duplicate` when the id exists.
    func insert(_ device: Device) throws
    /// The device with `id` if it belongs to `tenantId`.
    func device(id: String, tenantId: String) throws -> Device?
    /// The tenant's devices in creation order, `limit` at a time, after `cursor`.
    func devices(tenantId: String, after cursor: String?, limit: Int) throws -> Page<Device>
    /// Replaces the stored document of an existing device; false when it no longer exists.
    func update(_ device: Device) throws -> Bool
    /// Removes the device; false when the tenant has no such device.
    func delete(id: String, tenantId: String) throws -> Bool
}
