/// What the user and the system do to an app: R1–R7.
extension DeviceEngine {
    /// The user taps the icon (or picks the app in the switcher): it comes to the foreground, launched if needed (R1).
    ///
    /// `registering` is what the app's launch registered with `BGTaskScheduler.register` (R16), as a client that runs
    /// the app's own code knows it: when this launch starts the app's process (it was not running), those become its
    /// launch handlers; a running app keeps those of the launch that started it. Each must be permitted.
    public mutating func launch(_ bundleId: String, registering handlers: [String]? = nil) throws {
        let i = try slot(of: bundleId)
        if let handlers {
            let permitted = device.apps[i].manifest.permittedIdentifiers
            let issues = handlers.enumerated().filter { !permitted.contains($0.element) }.map {
                FieldIssue("launchHandlers[\($0.offset)]",
                           "\"\($0.element)\" is not in BGTaskSchedulerPermittedIdentifiers; registering it would crash the app")
            }
            guard issues.isEmpty else { throw EmulationError.invalid(issues) }
        }
        if device.apps[i].state == .active { return }
        background(allBut: bundleId, cause: "appSwitch")
        recordUserLaunch(i)
        if device.apps[i].state == .notRunning {
            if let handlers { device.apps[i].launchHandlers = handlers.uniqued }
            setState(i, .inactive, cause: "userLaunch")
            delegate(i, .didFinishLaunching, ["launchedBy": "user"])
            setState(i, .active, cause: "userLaunch")
            delegate(i, .didBecomeActive)
        } else {
            bringToForeground(i)
        }
        deliverDeferredPushes(i, userLaunch: true)  // R30
        reportCancelledTransfers(i)
    }

    /// The user returns to a running or suspended app (app switcher). A terminated app must be launched.
    public mutating func foreground(_ bundleId: String) throws {
        let i = try slot(of: bundleId)
        switch device.apps[i].state {
        case .active: return
        case .notRunning:
            throw EmulationError.conflict(code: "notRunning", detail: "\(bundleId) is not running; launch it instead.")
        case .inactive, .background, .suspended:
            background(allBut: bundleId, cause: "appSwitch")
            recordUserLaunch(i)
            bringToForeground(i)
            deliverDeferredPushes(i, userLaunch: true)  // R30
        }
    }

    /// The user presses Home or switches away: the app leaves the foreground (R1, R2; R4 and R14 terminate it).
    public mutating func background(_ bundleId: String) throws {
        let i = try slot(of: bundleId)
        guard device.apps[i].state == .active || device.apps[i].state == .inactive else {
            throw EmulationError.conflict(
                code: "notInForeground", detail: "\(bundleId) is \(device.apps[i].state.rawValue), not in the foreground.")
        }
        leaveForeground(i, cause: "userLeft")
    }

    /// The user swipes the app away in the switcher (R5): it ends and is not relaunched for background events
    /// until the user launches it again.
    public mutating func forceQuit(_ bundleId: String) throws {
        let i = try slot(of: bundleId)
        let wasRunning = device.apps[i].state != .notRunning
        if device.apps[i].state == .active {
            delegate(i, .willResignActive)
            setState(i, .inactive, cause: "forceQuit")
        }
        device.apps[i].runtime.forceQuit = true
        dropDeferredPushes(i, reason: "forceQuit")  // R31
        dropQueuedContinuedProcessing(i)  // R41
        if wasRunning {
            terminate(i, reason: "forceQuit", tellApp: device.apps[i].isRunning)
        } else {
            emit(.appTerminated, bundleId: bundleId, data: ["reason": "forceQuit", "wasRunning": false, "previousState": "notRunning"])
        }
        cancelTransfersOnForceQuit(i)
    }

    /// The system reclaims memory (R6): a background or suspended app ends; only a running one hears `willTerminate`.
    public mutating func terminate(_ bundleId: String) throws {
        let i = try slot(of: bundleId)
        switch device.apps[i].state {
        case .notRunning:
            throw EmulationError.conflict(code: "notRunning", detail: "\(bundleId) is not running.")
        case .active, .inactive:
            throw EmulationError.conflict(
                code: "inForeground", detail: "The system does not reclaim the memory of the foreground app.")
        case .background, .suspended:
            terminate(i, reason: "memoryPressure", tellApp: device.apps[i].state == .background)
        }
    }

    /// The device restarts (R7): every app ends.
    public mutating func reboot() {
        for i in device.appSlots where device.apps[i].state != .notRunning {
            terminate(i, reason: "reboot", tellApp: device.apps[i].isRunning)
        }
        emit(.deviceRebooted)
        relaunchVoIPApps()
    }

    // MARK: Transitions

    mutating func setState(_ i: AppSlot, _ state: AppState, cause: String) {
        let from = device.apps[i].state
        guard from != state else { return }
        device.apps[i].state = state
        emit(.appStateChanged, bundleId: device.apps[i].bundleId,
             data: ["from": .string(from.rawValue), "to": .string(state.rawValue), "cause": .string(cause)])
    }

    mutating func delegate(_ i: AppSlot, _ callback: DelegateCallback, _ extra: [String: EventValue] = [:]) {
        var data = extra
        data["callback"] = .string(callback.rawValue)
        data["method"] = .string(callback.method)
        emit(.appDelegate, bundleId: device.apps[i].bundleId, data: data)
    }

    /// Sends every other foreground app to the background: one app is in the foreground at a time.
    private mutating func background(allBut bundleId: String, cause: String) {
        for i in device.appSlots where device.apps[i].bundleId != bundleId {
            if device.apps[i].state == .active || device.apps[i].state == .inactive { leaveForeground(i, cause: cause) }
        }
    }

    private mutating func bringToForeground(_ i: AppSlot) {
        delegate(i, .willEnterForeground)
        setState(i, .inactive, cause: "userReturned")
        setState(i, .active, cause: "userReturned")
        delegate(i, .didBecomeActive)
        let bundleId = device.apps[i].bundleId
        cancelTimers { $0 == .lifecycleGraceEnd(bundleId: bundleId) || $0 == .allowanceWarning(bundleId: bundleId)
            || $0 == .allowanceEnd(bundleId: bundleId) }
        device.apps[i].runtime.enteredBackgroundAt = nil
        device.apps[i].runtime.lifecycleGraceEndsAt = nil
        device.apps[i].runtime.allowanceEndsAt = nil
        for t in device.apps[i].runtime.backgroundTasks.indices where device.apps[i].runtime.backgroundTasks[t].state == .expiring {
            device.apps[i].runtime.backgroundTasks[t].state = .running
        }
    }

    private mutating func leaveForeground(_ i: AppSlot, cause: String) {
        if device.apps[i].state == .active {
            delegate(i, .willResignActive)
            setState(i, .inactive, cause: cause)
        }
        let app = device.apps[i]
        if app.manifest.exitsOnSuspend || !device.multitaskingSupported {
            // R4, R14: no background state at all.
            terminate(i, reason: app.manifest.exitsOnSuspend ? "exitsOnSuspend" : "noMultitasking", tellApp: true)
            return
        }
        setState(i, .background, cause: cause)
        delegate(i, .didEnterBackground)
        stopUndeclaredActivities(i)
        let grace = now + policy.lifecycleCallbackAllowance
        device.apps[i].runtime.enteredBackgroundAt = now
        device.apps[i].runtime.lifecycleGraceEndsAt = grace
        // R9: the allowance counts from entering the background, whenever the tasks began.
        device.apps[i].runtime.allowanceEndsAt = now + policy.backgroundTaskAllowance
        schedule(.lifecycleGraceEnd(bundleId: app.bundleId), at: grace)
        armAllowance(i)
        if let script = app.behavior?.onEnterBackground {
            beginScriptedTask(i, script)
        }
    }

    mutating func lifecycleGraceEnded(_ bundleId: String) {
        guard let i = device.appSlot(bundleId) else { return }
        device.apps[i].runtime.lifecycleGraceEndsAt = nil
        settle(i)
    }

    /// Whether something keeps a background app from suspension (R2): its lifecycle callback's time, an open
    /// background task, an open run.
    func isHeld(_ i: AppSlot) -> Bool {
        if let grace = device.apps[i].runtime.lifecycleGraceEndsAt, grace > now { return true }
        return device.apps[i].runtime.hasOpenTask || device.apps[i].runtime.hasOpenRun || holdsByActivity(i)
    }

    /// Suspends a background app that nothing holds any more (R2, R13, R23).
    mutating func settle(_ i: AppSlot) {
        guard device.apps[i].state == .background, !isHeld(i) else { return }
        setState(i, .suspended, cause: "idle")
        let bundleId = device.apps[i].bundleId
        cancelTimers { $0 == .allowanceWarning(bundleId: bundleId) || $0 == .allowanceEnd(bundleId: bundleId) }
        device.apps[i].runtime.allowanceEndsAt = nil
    }

    /// Ends a running or suspended app: open tasks and runs end with it, its timers are dropped. The
    /// `app.terminated` event says the state it ended in (`previousState`) and whether its code was running
    /// then (`wasRunning`: in the foreground or the background, not suspended), whether or not it was told.
    mutating func terminate(_ i: AppSlot, reason: String, tellApp: Bool, extra: [String: EventValue] = [:]) {
        let bundleId = device.apps[i].bundleId
        let previous = device.apps[i].state
        let wasRunning = device.apps[i].isRunning
        if tellApp { delegate(i, .willTerminate) }
        for t in device.apps[i].runtime.backgroundTasks.indices where device.apps[i].runtime.backgroundTasks[t].isOpen {
            device.apps[i].runtime.backgroundTasks[t].state = reason == "watchdog" ? .expired : .ended
            device.apps[i].runtime.backgroundTasks[t].endedAt = now
        }
        for r in device.apps[i].runtime.runs.indices where device.apps[i].runtime.runs[r].isOpen {
            device.apps[i].runtime.runs[r].state = .expired
            device.apps[i].runtime.runs[r].result = device.apps[i].runtime.runs[r].result ?? .failure
            device.apps[i].runtime.runs[r].endedAt = now
            emit(.runExpired, bundleId: bundleId, data: [
                "runId": .string(device.apps[i].runtime.runs[r].id), "kind": .string(device.apps[i].runtime.runs[r].kind.rawValue),
                "reason": .string(reason), "result": "failure",
            ])
        }
        cancelTimers { kind in kind.bundleId == bundleId && kind != .predictedUsage(bundleId: bundleId) && !kind.outlivesProcess }
        device.apps[i].runtime.enteredBackgroundAt = nil
        device.apps[i].runtime.lifecycleGraceEndsAt = nil
        device.apps[i].runtime.allowanceEndsAt = nil
        endProcessActivities(i)
        setState(i, .notRunning, cause: reason)
        var data = extra
        data["reason"] = .string(reason)
        data["wasRunning"] = .bool(wasRunning)
        data["previousState"] = .string(previous.rawValue)
        emit(.appTerminated, bundleId: bundleId, data: data)
    }

    private mutating func recordUserLaunch(_ i: AppSlot) {
        device.apps[i].runtime.forceQuit = false
        device.apps[i].runtime.launchHistory.append(now)
        if device.apps[i].runtime.launchHistory.count > AppRuntime.launchHistoryLimit {
            device.apps[i].runtime.launchHistory.removeFirst()
        }
        reschedulePrediction(i)
    }
}
