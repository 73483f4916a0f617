/// Applies what users, apps and the system do to one device, and lets its virtual time pass.
///
/// Pure and deterministic: it reads time only from the device's clock and randomness only from the device's seeded
/// generator. Each operation changes `device` and appends to `events`; the caller stores both together.
public struct DeviceEngine: Sendable {
    public internal(set) var device: Device
    /// What happened, in order, since the engine was made.
    public internal(set) var events: [EmulationEvent] = []

    public init(device: Device) {
        self.device = device
        policy = device.policy
        ensureOpportunityScheduled()
    }

    /// The device's virtual now.
    public var now: VirtualInstant { device.clock.anchor }

    /// The constants in force on the device: `device.policy`, kept, since only ``setPolicyOverrides(_:)`` changes
    /// them. Made anew at each read, it was a copy of the profile (and its release) each time, 5 % of a
    /// forecast's instructions.
    var policy: Profile

    // MARK: Time

    /// The longest single advance (30 virtual days): a larger one is refused.
    public static let maximumAdvance = VirtualDuration(seconds: 30 * 86_400)

    /// Fires every timer due up to `target` in time order (ties in creation order), each at its own instant, then
    /// sets the clock to `target`. Idle time is jumped over, so a week of a quiet device costs nothing.
    ///
    /// With `stoppingAtAppCode`, the advance stops right after the first timer that calls code of an app a client
    /// drives (not scripted): a run starts or starts expiring, a background task starts expiring, or a delegate
    /// method is called (``EventType/callsAppCode``). The clock then reads that timer's instant and the answer is
    /// `true`: the client runs the app's code, whose answers (completing the run, ending the task) reach the device
    /// at that instant, and advances again. Answers `false` when the clock reached `target`.
    @discardableResult
    public mutating func advance(to target: VirtualInstant, stoppingAtAppCode: Bool = false) throws -> Bool {
        // Both bounds depend on the clock's current reading, so a refusal is a conflict with the device's state
        // (the same `to` is fine on another device), not an invalid request.
        guard target >= now else {
            throw EmulationError.conflict(code: "clockCannotGoBack", detail: "The clock cannot go back: it reads \(now).")
        }
        guard target - now <= Self.maximumAdvance else {
            throw EmulationError.conflict(
                code: "advanceTooLong", detail: "One advance moves at most 30 days; the clock reads \(now).")
        }
        guard target <= VirtualInstant.latest else {
            throw EmulationError.conflict(
                code: "clockAtLimit", detail: "The clock runs up to \(RFC3339.format(.latest)); it reads \(now).")
        }
        let from = now
        let stopped = runTimers(through: target, stoppingAtAppCode: stoppingAtAppCode)
        if !stopped { device.clock.anchor = target }
        emit(.clockAdvanced, data: ["from": .instant(from), "to": .instant(now)])
        return stopped
    }

    /// For a realtime clock: lets virtual time catch up with wall time, firing what fell due, and re-anchors.
    public mutating func catchUp(wallMilliseconds: Int64) {
        guard device.clock.mode == .realtime else { return }
        let target = device.clock.now(wallMilliseconds: wallMilliseconds)
        if target > now { runTimers(through: target) }
        device.clock.anchor = max(target, now)
        device.clock.anchorWallMilliseconds = wallMilliseconds
    }

    /// The next timer's due instant, if any (a realtime driver sleeps until then).
    public var nextDue: VirtualInstant? { device.runtime.timers.first?.due }

    /// Fires the timers due by `target`; with `stoppingAtAppCode`, stops after one that called a driven app's code
    /// and answers `true`.
    @discardableResult
    private mutating func runTimers(through target: VirtualInstant, stoppingAtAppCode: Bool = false) -> Bool {
        while let timer = device.runtime.popDue(by: target) {
            device.clock.anchor = max(now, timer.due)
            let before = events.count
            fire(timer.kind)
            if stoppingAtAppCode, events[before...].contains(where: callsDrivenAppCode) { return true }
        }
        return false
    }

    /// Whether `event` calls code of an app that a client drives (one without a scripted `behavior`).
    private func callsDrivenAppCode(_ event: EmulationEvent) -> Bool {
        guard event.type.callsAppCode, let bundleId = event.bundleId, let app = device.app(bundleId) else { return false }
        return app.behavior == nil
    }

    // MARK: Events and ids

    mutating func emit(_ type: EventType, bundleId: String? = nil, data: [String: EventValue] = [:]) {
        events.append(EmulationEvent(type: type, bundleId: bundleId, at: now, data: data))
    }

    mutating func newRunId() -> String {
        defer { device.runtime.nextRunNumber += 1 }
        return "run_\(device.runtime.nextRunNumber)"
    }

    mutating func newTaskId() -> String {
        defer { device.runtime.nextTaskNumber += 1 }
        return "bgt_\(device.runtime.nextTaskNumber)"
    }

    mutating func schedule(_ kind: DeviceTimer.Kind, at due: VirtualInstant) {
        device.runtime.schedule(kind, at: due)
    }

    mutating func cancelTimers(where predicate: (DeviceTimer.Kind) -> Bool) {
        device.runtime.cancel(where: predicate)
    }

    // MARK: Apps

    /// The slot of an installed app, or `notFound`.
    func slot(of bundleId: String) throws -> AppSlot {
        guard let slot = device.appSlot(bundleId) else { throw EmulationError.notFound(kind: "app", id: bundleId) }
        return slot
    }

    /// Dispatches a due timer.
    private mutating func fire(_ kind: DeviceTimer.Kind) {
        switch kind {
        case .lifecycleGraceEnd(let bundleId): lifecycleGraceEnded(bundleId)
        case .allowanceWarning(let bundleId): allowanceWarning(bundleId)
        case .allowanceEnd(let bundleId): allowanceEnded(bundleId)
        case .runDeadline(let bundleId, let runId): runDeadlinePassed(bundleId, runId: runId)
        case .runGraceEnd(let bundleId, let runId): runGraceEnded(bundleId, runId: runId)
        case .scriptedRunCompletion(let bundleId, let runId): scriptedRunCompletion(bundleId, runId: runId)
        case .scriptedTaskEnd(let bundleId, let taskId): scriptedTaskEnd(bundleId, taskId: taskId)
        case .opportunity: opportunity()
        case .predictedUsage(let bundleId): predictedUsage(bundleId)
        case .localNotification(let bundleId, let identifier): localNotificationDue(bundleId, identifier: identifier)
        case .transfer(let bundleId, let transferId): transferTimerFired(bundleId, transferId: transferId)
        case .voipKeepAlive(let bundleId): voipKeepAliveDue(bundleId)
        case .pushExpiration(let bundleId, let apnsId): deferredPushExpired(bundleId, apnsId: apnsId)
        }
    }
}
