/// `beginBackgroundTask` and `endBackgroundTask`: R8–R14.
extension DeviceEngine {
    /// Begins a task (R8); nil is `UIBackgroundTaskInvalid`, on a device without multitasking (R14).
    @discardableResult
    public mutating func beginBackgroundTask(_ bundleId: String, name: String?) throws -> BackgroundTask? {
        let i = try slot(of: bundleId)
        guard device.apps[i].isRunning else {
            throw EmulationError.conflict(
                code: "appNotRunning",
                detail: "\(bundleId) is \(device.apps[i].state.rawValue): its code cannot call beginBackgroundTask.")
        }
        guard device.multitaskingSupported else { return nil }
        return beginTask(i, name: name, endsOnExpiration: false)
    }

    /// Ends an open task (R13: the app is suspended at once when nothing else holds it).
    public mutating func endBackgroundTask(_ bundleId: String, taskId: String) throws {
        let i = try slot(of: bundleId)
        guard let t = device.apps[i].runtime.backgroundTasks.firstSlot(where: { $0.id == taskId && $0.isOpen }) else {
            throw EmulationError.notFound(kind: "background task", id: taskId)
        }
        endTask(i, t, reason: "ended")
    }

    /// The app's `backgroundTimeRemaining` in seconds now (see `Device.backgroundTimeRemaining`).
    public func backgroundTimeRemaining(_ bundleId: String) -> Double? {
        device.backgroundTimeRemaining(bundleId, at: now)
    }

    // MARK: Internals

    @discardableResult
    mutating func beginTask(_ i: AppSlot, name: String?, endsOnExpiration: Bool) -> BackgroundTask {
        let task = BackgroundTask(id: newTaskId(), name: name, beganAt: now, endsOnExpiration: endsOnExpiration)
        device.apps[i].runtime.backgroundTasks.append(task)
        trimTaskHistory(i)
        let inBackground = device.apps[i].state == .background
        if inBackground, device.apps[i].runtime.allowanceEndsAt.map({ $0 <= now }) ?? true {
            // Running in the background for another reason (a run) after the window closed: a new window opens.
            device.apps[i].runtime.allowanceEndsAt = now + policy.backgroundTaskAllowance
        }
        emit(.backgroundTaskBegan, bundleId: device.apps[i].bundleId, data: [
            "taskId": .string(task.id), "name": .optional(name), "inForeground": .bool(!inBackground),
        ])
        armAllowance(i)
        return task
    }

    mutating func beginScriptedTask(_ i: AppSlot, _ script: TaskBehavior) {
        let task = beginTask(i, name: script.name, endsOnExpiration: script.endOnExpiration)
        if let after = script.endAfter {
            schedule(.scriptedTaskEnd(bundleId: device.apps[i].bundleId, taskId: task.id), at: now + after)
        }
    }

    mutating func endTask(_ i: AppSlot, _ t: ListSlot<BackgroundTask>, reason: String) {
        let bundleId = device.apps[i].bundleId
        device.apps[i].runtime.backgroundTasks[t].state = .ended
        device.apps[i].runtime.backgroundTasks[t].endedAt = now
        let taskId = device.apps[i].runtime.backgroundTasks[t].id
        cancelTimers { $0 == .scriptedTaskEnd(bundleId: bundleId, taskId: taskId) }
        emit(.backgroundTaskEnded, bundleId: bundleId, data: ["taskId": .string(taskId), "reason": .string(reason)])
        if device.apps[i].runtime.openTasks.isEmpty {
            cancelTimers { $0 == .allowanceWarning(bundleId: bundleId) || $0 == .allowanceEnd(bundleId: bundleId) }
        }
        settle(i)
    }

    /// Schedules the expiration warning and the end of the allowance while a background app has open tasks.
    mutating func armAllowance(_ i: AppSlot) {
        let bundleId = device.apps[i].bundleId
        cancelTimers { $0 == .allowanceWarning(bundleId: bundleId) || $0 == .allowanceEnd(bundleId: bundleId) }
        guard device.apps[i].state == .background, !device.apps[i].runtime.openTasks.isEmpty,
            let end = device.apps[i].runtime.allowanceEndsAt
        else { return }
        let warning = end - policy.expirationWarning
        if device.apps[i].runtime.openTasks.contains(where: { $0.state == .running }) {
            schedule(.allowanceWarning(bundleId: bundleId), at: max(warning, now))
        }
        schedule(.allowanceEnd(bundleId: bundleId), at: end)
    }

    /// R11: every running task's expiration handler is called.
    mutating func allowanceWarning(_ bundleId: String) {
        guard let i = device.appSlot(bundleId), device.apps[i].state == .background else { return }
        let remaining = device.apps[i].runtime.allowanceEndsAt.map { max(0, ($0 - now).seconds) } ?? 0
        for t in device.apps[i].runtime.backgroundTasks.slots where device.apps[i].runtime.backgroundTasks[t].state == .running {
            device.apps[i].runtime.backgroundTasks[t].state = .expiring
            let task = device.apps[i].runtime.backgroundTasks[t]
            emit(.backgroundTaskExpiring, bundleId: bundleId, data: [
                "taskId": .string(task.id), "name": .optional(task.name), "backgroundTimeRemaining": .double(remaining),
            ])
        }
        // A scripted app's handler ends its task (seed 000's pattern); others wait for the client.
        for t in device.apps[i].runtime.backgroundTasks.slots {
            let task = device.apps[i].runtime.backgroundTasks[t]
            if task.state == .expiring, task.endsOnExpiration { endTask(i, t, reason: "expirationHandler") }
        }
    }

    /// R12: tasks still open when the allowance is spent get the app killed by the watchdog.
    mutating func allowanceEnded(_ bundleId: String) {
        guard let i = device.appSlot(bundleId), device.apps[i].state == .background else { return }
        let open = device.apps[i].runtime.openTasks
        guard !open.isEmpty else { settle(i); return }
        terminate(i, reason: "watchdog", tellApp: false, extra: [
            "terminationCode": "0x8badf00d", "taskIds": .array(open.map { .string($0.id) }),
        ])
    }

    mutating func scriptedTaskEnd(_ bundleId: String, taskId: String) {
        guard let i = device.appSlot(bundleId),
            let t = device.apps[i].runtime.backgroundTasks.firstSlot(where: { $0.id == taskId && $0.isOpen })
        else { return }
        endTask(i, t, reason: "ended")
    }

    private mutating func trimTaskHistory(_ i: AppSlot) {
        let tasks = device.apps[i].runtime.backgroundTasks
        guard tasks.count > AppRuntime.historyLimit, let first = tasks.firstIndex(where: { !$0.isOpen }) else { return }
        device.apps[i].runtime.backgroundTasks.remove(at: first)
    }
}
