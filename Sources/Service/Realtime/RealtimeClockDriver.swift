import Emulation
import Foundation
import Logging
import Synchronization

/// Moves the clocks of `realtime` devices by itself, so that their events appear in open streams without any
/// request: it knows when each device's next timer falls due in wall time and catches the device up then.
public final class RealtimeClockDriver: Sendable {
    private struct Entry {
        var tenantId: String
        /// Wall milliseconds at which the device's next timer is due.
        var wakeAt: Int64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var running = false
    }

    private let devices: DeviceService
    /// The tenants' move fences: a fenced tenant's clocks wait (its export must hold every event it will have), and
    /// a fence waits for a catch-up under way, as for any write.
    private let fences: TenantFences?
    private let wallClock: @Sendable () -> Date
    private let logger: Logger
    private let state = Mutex(State())
    /// How often the driver looks for due devices.
    private let tick: TimeInterval

    public init(devices: DeviceService, fences: TenantFences? = nil, wallClock: @escaping @Sendable () -> Date = { Date() },
                logger: Logger, tick: TimeInterval = 0.02) {
        self.devices = devices
        self.fences = fences
        self.wallClock = wallClock
        self.logger = logger
        self.tick = tick
    }

    /// Starts driving `initial` (the realtime devices in storage) and every realtime device committed later.
    public func start(initial: [Device]) {
        devices.observeRealtimeDevices { [weak self] device in self?.track(device) }
        for device in initial { track(device) }
        let shouldStart = state.withLock { state -> Bool in
            defer { state.running = true }
            return !state.running
        }
        guard shouldStart else { return }
        let thread = Thread { [self] in loop() }
        thread.name = "bgemu-realtime"
        thread.start()
    }

    /// How many realtime clocks the driver moves now: the realtime devices with a timer pending (for metrics).
    public var drivenClockCount: Int { state.withLock { $0.entries.count } }

    public func stop() {
        state.withLock { $0.running = false }
    }

    /// Records when `device` next needs the driver (or forgets it when it has no timer).
    func track(_ device: Device) {
        let wake = Self.wakeAt(device)
        state.withLock { state in
            if let wake { state.entries[device.id] = Entry(tenantId: device.tenantId, wakeAt: wake) }
            else { state.entries[device.id] = nil }
        }
    }

    /// Wall milliseconds of the device's next due timer: `anchorWall + (due − anchor) ÷ scale`.
    static func wakeAt(_ device: Device) -> Int64? {
        guard device.clock.mode == .realtime, let due = device.runtime.timers.first?.due else { return nil }
        let virtualWait = Double(max(0, (due - device.clock.anchor).milliseconds))
        return device.clock.anchorWallMilliseconds + Int64((virtualWait / device.clock.scale).rounded(.up))
    }

    private func loop() {
        while state.withLock({ $0.running }) {
            let now = Int64((wallClock().timeIntervalSince1970 * 1000).rounded())
            let due = state.withLock { state in
                state.entries.filter { $0.value.wakeAt <= now }.map { (id: $0.key, tenantId: $0.value.tenantId) }
            }
            for device in due.sorted(by: { $0.id < $1.id }) {
                // Fenced for a move: left as it is (still tracked), caught up on the target or once unfenced.
                if let fences, !fences.enter(device.tenantId) { continue }
                defer { fences?.leave(device.tenantId) }
                do {
                    try devices.catchUp(device.id, tenantId: device.tenantId)
                } catch {
                    // The device is gone (deleted) or the database is unavailable: stop driving it for now.
                    state.withLock { _ = $0.entries.removeValue(forKey: device.id) }
                    logger.debug("realtime device not driven: \(device.id): \(error)")
                }
            }
            Thread.sleep(forTimeInterval: tick)
        }
    }
}
