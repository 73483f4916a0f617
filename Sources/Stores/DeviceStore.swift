import Emulation
import Foundation

/// Where devices (with their apps) are kept, one document per device, and the events that happen on them.
public protocol DeviceStore: Sendable {
    /// Stores a new device; `StoreError.duplicate` when the id exists.
    func insert(_ device: Device) throws
    /// The device with `id` if it belongs to `tenantId`.
    func device(id: String, tenantId: String) throws -> Device?
    /// The tenant's devices in creation order, `limit` at a time, after `cursor`.
    func devices(tenantId: String, after cursor: String?, limit: Int) throws -> Page<Device>
    /// Replaces the stored document of an existing device; false when it no longer exists.
    func update(_ device: Device) throws -> Bool
    /// Stores a new device and appends `events` to the log, in one transaction; answers the recorded events.
    func insert(_ device: Device, appending events: [EmulationEvent], recordedAt: Date) throws -> [RecordedEvent]
    /// Replaces the device's document and appends `events`, in one transaction; nil when the device is gone.
    func update(_ device: Device, appending events: [EmulationEvent], recordedAt: Date) throws -> [RecordedEvent]?
    /// Every device with a realtime clock (the service drives their time).
    func realtimeDevices() throws -> [Device]
    /// How many devices the tenant has.
    func deviceCount(tenantId: String) throws -> Int
    /// Removes the device; false when the tenant has no such device.
    func delete(id: String, tenantId: String) throws -> Bool
}
