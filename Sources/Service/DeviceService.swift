import Emulation
import Foundation
import Locking
import Synchronization
import Stores

/// Runs emulation commands against stored devices: load, catch a realtime clock up with wall time, apply the
/// command through a `DeviceEngine`, store the device and its new events in one transaction, then publish the
/// events.
///
/// Concurrency is per device: a command holds its device's lock (``DeviceLocks``) from load to commit, so one
/// device's commands run in order and none is lost, while other devices' commands run beside it and their commits
/// share transactions (``SQLiteDeviceStore`` groups them). An idempotent request runs alone (``exclusively(_:)``).
public final class DeviceService: Sendable {
    let store: any DeviceStore
    private let wallClock: @Sendable () -> Date
    /// Called with the recorded events after each commit (the live event hub).
    private let publish: @Sendable ([RecordedEvent]) -> Void
    /// Called after each commit of a realtime device with its next timer (the realtime driver).
    private let realtimeChanged: Mutex<(@Sendable (Device) -> Void)?> = Mutex(nil)
    /// Commands enter beside each other; an idempotent request's transaction enters alone.
    private let gate = WriteGate()
    /// One lock per device being written.
    let deviceLocks = DeviceLocks()
    /// Held while a tenant's device count is first read, so that no creation goes uncounted meanwhile.
    private let countLoading = NSLock()
    /// Decoded devices by id, as last committed: every write goes through this service, so reads need neither
    /// SQLite nor JSON decoding. The least recently used half goes when it grows past `cacheLimit`.
    let cache = DeviceCache(limit: DeviceService.cacheLimit)
    /// Each tenant's device count, once read, kept up to date by creations (counted before they commit, so that
    /// concurrent creations cannot pass the quota together) and deletions: counting the rows for each creation
    /// cost 310 µs at 10,000 devices.
    private let deviceCounts = PlainLock<[String: Int]>([:])
    static let cacheLimit = 2_000

    /// The most devices one tenant may have (scenario runs' included): a quota, so one tenant cannot fill the
    /// database the others share.
    public let maximumDevicesPerTenant: Int

    public init(
        store: any DeviceStore, wallClock: @escaping @Sendable () -> Date = { Date() },
        publish: @escaping @Sendable ([RecordedEvent]) -> Void = { _ in }, maximumDevicesPerTenant: Int = 10_000
    ) {
        self.store = store
        self.maximumDevicesPerTenant = maximumDevicesPerTenant
        self.wallClock = wallClock
        self.publish = publish
    }

    /// Registers the observer of realtime devices (the driver that moves their clocks).
    public func observeRealtimeDevices(_ observer: @escaping @Sendable (Device) -> Void) {
        realtimeChanged.withLock { $0 = observer }
    }

    public var wallMilliseconds: Int64 { Int64((wallClock().timeIntervalSince1970 * 1000).rounded()) }

    /// The tenant's device, or a `notFound` error (also for another tenant's device: no existence leak).
    public func device(_ id: String, tenantId: String) throws -> Device {
        if let cached = cache.device(id) {
            guard cached.tenantId == tenantId else { throw EmulationError.notFound(kind: "device", id: id) }
            return cached
        }
        // A miss reads and caches under the device's lock (a command already holds it: it is recursive), so that
        // a read cannot put back in the cache a version older than one a command committed and cached meanwhile.
        return try deviceLocks.withLock(id) {
            if let cached = cache.device(id) {
                guard cached.tenantId == tenantId else { throw EmulationError.notFound(kind: "device", id: id) }
                return cached
            }
            guard let device = try store.device(id: id, tenantId: tenantId) else {
                throw EmulationError.notFound(kind: "device", id: id)
            }
            remember(device)
            return device
        }
    }

    /// Whether the tenant has the device.
    public func exists(_ id: String, tenantId: String) throws -> Bool {
        do {
            _ = try device(id, tenantId: tenantId)
            return true
        } catch EmulationError.notFound {
            return false
        }
    }

    /// Forgets every cached device of a tenant (its rows were deleted with it).
    public func forgetTenant(_ tenantId: String) {
        cache.forgetTenant(tenantId)
        deviceCounts.withLock { _ = $0.removeValue(forKey: tenantId) }
    }

    /// Reads the tenant's device count, unless known.
    private func loadDeviceCount(tenantId: String) throws {
        if deviceCounts.withLock({ $0[tenantId] != nil }) { return }
        try countLoading.withLock {
            if deviceCounts.withLock({ $0[tenantId] != nil }) { return }
            let count = try store.deviceCount(tenantId: tenantId)
            deviceCounts.withLock { $0[tenantId] = count }
        }
    }

    /// Counts a device the tenant is creating, or throws `tooManyDevices` when it has its quota.
    private func reserveDevice(tenantId: String) throws {
        try loadDeviceCount(tenantId: tenantId)
        let reserved = deviceCounts.withLock { counts -> Bool in
            let count = counts[tenantId] ?? 0
            guard count < maximumDevicesPerTenant else { return false }
            counts[tenantId] = count + 1
            return true
        }
        guard reserved else {
            throw EmulationError.conflict(
                code: "tooManyDevices",
                detail: "Your tenant has \(maximumDevicesPerTenant) devices, its quota on this instance; delete some first.")
        }
    }

    private func countDevices(tenantId: String, by change: Int) {
        deviceCounts.withLock { counts in
            if let count = counts[tenantId] { counts[tenantId] = count + change }
        }
    }

    private func remember(_ device: Device) {
        cache.remember(device)
    }

    /// Stores a new device with its first events.
    public func create(_ device: Device, _ setUp: (inout DeviceEngine) throws -> Void) throws -> Device {
        let (created, recorded) = try gate.beside {
            try reserveDevice(tenantId: device.tenantId)
            do {
                var engine = DeviceEngine(device: device)
                try setUp(&engine)
                let recorded = try store.insert(engine.device, appending: engine.events, recordedAt: wallClock())
                remember(engine.device)
                notifyIfRealtime(engine.device)
                return (engine.device, recorded)
            } catch {
                countDevices(tenantId: device.tenantId, by: -1)
                throw error
            }
        }
        AfterCommit.run { [publish] in publish(recorded) }
        return created
    }

    public func list(tenantId: String, cursor: String?, limit: Int) throws -> Page<Device> {
        try store.devices(tenantId: tenantId, after: cursor, limit: limit)
    }

    public func delete(_ id: String, tenantId: String) throws {
        let deleted = try gate.beside {
            try deviceLocks.withLock(id) {
                try loadDeviceCount(tenantId: tenantId)  // so that the deletion is counted
                defer { cache.forget(id) }
                let deleted = try store.delete(id: id, tenantId: tenantId)
                if deleted { countDevices(tenantId: tenantId, by: -1) }
                return deleted
            }
        }
        if !deleted { throw EmulationError.notFound(kind: "device", id: id) }
    }

    /// Applies `command` to the device at the current virtual time and commits what it did. When the command
    /// throws `refused`, what the refusal caused is committed before the error is rethrown; on any other error
    /// nothing is stored.
    @discardableResult
    func perform<T>(_ id: String, tenantId: String, _ command: (inout DeviceEngine) throws -> T) throws -> (Device, T) {
        // Events are published after the lock is released: delivery walks the open streams, and the hub puts
        // concurrent publishes back in id order itself.
        let outcome: Result<(Device, T), any Error>
        let recorded: [RecordedEvent]
        (outcome, recorded) = try gate.beside { try deviceLocks.withLock(id) {
            var engine = DeviceEngine(device: try device(id, tenantId: tenantId))
            engine.catchUp(wallMilliseconds: wallMilliseconds)
            do {
                let result = try command(&engine)
                return (.success((engine.device, result)), try commit(engine))
            } catch let error as EmulationError {
                guard case .refused = error else { throw error }
                return (.failure(error), try commit(engine))
            }
        } }
        AfterCommit.run { [publish] in publish(recorded) }
        return try outcome.get()
    }

    /// Runs `body` alone, so that no other command interleaves: an idempotent request runs its handler and stores
    /// its answer in one transaction inside this. Lock order: the gate, then a device's lock, then the database's.
    public func exclusively<T>(_ body: () throws -> T) rethrows -> T {
        try gate.alone(body)
    }

    /// Forgets every cached device: after an enclosing transaction rolled back what commands had cached. Call it
    /// only inside ``exclusively(_:)``: it forgets the device counts too, which a creation under way elsewhere (its
    /// place reserved, not yet committed) would then miss.
    public func forgetCachedDevices() {
        cache.forgetAll()
        deviceCounts.withLock { $0.removeAll() }
    }

    /// Moves a realtime device's clock up to wall time, firing what fell due (the realtime driver calls this).
    public func catchUp(_ id: String, tenantId: String) throws {
        _ = try perform(id, tenantId: tenantId) { _ in () }
    }

    /// Hands the tenant's realtime devices to the realtime driver: after an import (a tenant moved here), whose
    /// devices were committed by another shard's service, so that no commit of this one announced them.
    public func announceRealtimeDevices(tenantId: String) throws {
        for device in try store.realtimeDevices() where device.tenantId == tenantId {
            notifyIfRealtime(device)
        }
    }

    /// Stores the device and its new events in one transaction; answers them as recorded.
    private func commit(_ engine: DeviceEngine) throws -> [RecordedEvent] {
        guard let recorded = try store.update(engine.device, appending: engine.events, recordedAt: wallClock()) else {
            cache.forget(engine.device.id)
            throw EmulationError.notFound(kind: "device", id: engine.device.id)
        }
        remember(engine.device)
        notifyIfRealtime(engine.device)
        return recorded
    }

    private func notifyIfRealtime(_ device: Device) {
        guard device.clock.mode == .realtime, let observer = realtimeChanged.withLock({ $0 }) else { return }
        observer(device)
    }
}
