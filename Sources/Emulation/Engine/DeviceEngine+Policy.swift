/// When the system grants discretionary time: opportunities, the factors of R25 in order, fetch (R25–R28).
extension DeviceEngine {
    /// Something the system could launch an app for at an opportunity.
    enum Candidate {
        case request(TaskRequest)
        case fetch
    }

    /// Why the pending request `identifier` would or would not run (the `eligibility` route).
    public func eligibility(_ bundleId: String, identifier: String) throws -> Eligibility {
        let i = try slot(of: bundleId)
        guard let request = device.apps[i].runtime.taskRequests.first(where: { $0.identifier == identifier }) else {
            throw EmulationError.notFound(kind: "task request", id: identifier)
        }
        let predicted = request.kind == .appRefresh ? nextPredictedLaunch(i) : nil
        var known: VirtualInstant?? = .some(predicted)
        let items = conditions(i, .request(request), atPredictedUse: false, predicted: &known).items
        let first = firstRun(of: i, identifier: identifier, conditions: items)
        return Eligibility(
            identifier: identifier, kind: request.kind, conditions: items,
            nextOpportunityAt: device.runtime.timers.first { $0.kind == .opportunity }?.due, predictedLaunchAt: predicted,
            firstRunAt: first.at, blockedBy: first.blockedBy)
    }

    /// Schedules the first opportunity of a device that has none.
    mutating func ensureOpportunityScheduled() {
        guard !device.runtime.timers.contains(where: { $0.kind == .opportunity }) else { return }
        scheduleNextOpportunity()
    }

    private mutating func scheduleNextOpportunity() {
        let jitter = device.runtime.random.milliseconds(upTo: policy.opportunityJitter.milliseconds)
        schedule(.opportunity, at: now + policy.opportunityInterval + VirtualDuration(milliseconds: jitter))
    }

    /// R26: a system opportunity; each app gets at most one discretionary launch.
    mutating func opportunity() {
        scheduleNextOpportunity()
        for i in device.appSlots { tryDiscretionaryLaunch(i, atPredictedUse: false) }
        deliverDeferredPushes()  // R30
    }

    /// R26: shortly before the user usually opens the app, its refresh (or fetch) may run.
    mutating func predictedUsage(_ bundleId: String) {
        guard let i = device.appSlot(bundleId) else { return }
        reschedulePrediction(i)
        tryDiscretionaryLaunch(i, atPredictedUse: true)
    }

    /// Launches the app for its first candidate whose conditions are all met, in the order R25 weighs them:
    /// processing requests, then app refresh requests, then fetch.
    private mutating func tryDiscretionaryLaunch(_ i: AppSlot, atPredictedUse: Bool) {
        // The candidates share the app's predicted launch: computed once, when a candidate first needs it.
        var predicted: VirtualInstant?? = nil
        var launch: Candidate?
        let requests = device.apps[i].runtime.taskRequests
        for kind in [TaskRequestKind.processing, .appRefresh] where launch == nil {
            launch = requests.first { request in
                request.kind == kind && isMet(i, .request(request), atPredictedUse: atPredictedUse, predicted: &predicted)
            }.map(Candidate.request)
        }
        if launch == nil, device.apps[i].manifest.declares(.fetch), device.apps[i].runtime.fetchInterval != .never,
            isMet(i, .fetch, atPredictedUse: atPredictedUse, predicted: &predicted)
        {
            launch = .fetch
        }
        guard let launch else { return }
        let reason = atPredictedUse ? "predictedUsage" : "opportunity"
        switch launch {
        case .request(let request):
            if request.kind == .appRefresh { consumeBudget(i) }
            launchRequest(i, request, reason: reason)
        case .fetch:
            consumeBudget(i)
            device.apps[i].runtime.lastFetchAt = now
            startRun(i, kind: .fetch, reason: reason, duration: policy.appRefreshRun ?? .seconds(30))
        }
        device.apps[i].runtime.lastDiscretionaryLaunchAt = now
    }

    /// Whether every condition of `candidate` is met, stopping at the first that is not (an opportunity's check).
    private func isMet(_ i: AppSlot, _ candidate: Candidate, atPredictedUse: Bool, predicted: inout VirtualInstant??) -> Bool {
        conditions(i, candidate, atPredictedUse: atPredictedUse, predicted: &predicted, explain: false, verdictOnly: true)
            .allMet
    }

    /// The conditions of R15–R28 for a candidate, in the order the system weighs them (R25).
    /// With `explain: false` (the opportunity's own check) the details are left empty: formatting them is most of
    /// the cost, and nobody reads them there; with `verdictOnly` the list stops at the first unmet condition.
    /// `predicted` is the app's next predicted launch once known (`.some`), computed here when needed and unknown.
    func conditions(
        _ i: AppSlot, _ candidate: Candidate, atPredictedUse: Bool, predicted: inout VirtualInstant??,
        explain: Bool = true, verdictOnly: Bool = false
    ) -> ConditionList {
        // The app is read in place (`device.apps[i]`), not copied: a copy of an app retains and releases each of
        // its arrays and strings, and an opportunity weighs every app.
        let c = device.conditions
        let policy = self.policy
        var list = ConditionList(explain: explain, verdictOnly: verdictOnly)
        var isProcessing = false
        switch candidate {
        case .request(let request):
            isProcessing = request.kind == .processing
            list.add("permitted", "R15",
                              device.apps[i].permits(request)
                                  && request.kind.requiredMode.map(device.apps[i].manifest.declares) ?? true,
                              "identifier permitted and mode \(request.kind.requiredMode?.rawValue ?? "none") declared")
            list.add("launchHandlerRegistered", "R16", device.apps[i].hasLaunchHandler(for: request),
                              "BGTaskScheduler.register was called for it at launch")
            let begin = request.earliestBeginDate
            list.add("earliestBeginDate", "R19", begin.map { $0 <= now } ?? true,
                              begin.map { "not before \($0)" } ?? "no earliest begin date")
            if request.requiresNetworkConnectivity {
                list.add("networkAvailable", "R20", c.network != .none, "network is \(c.network.rawValue)")
            }
            if request.requiresExternalPower {
                list.add("externalPower", "R20", c.charging, c.charging ? "charging" : "not charging")
            }
            if isProcessing {
                list.add("deviceIdle", "R20", c.locked && !c.userActive,
                                  "processing runs only while the device is locked and the user is not active")
            }
        case .fetch:
            let interval = device.apps[i].runtime.fetchInterval
            let spacing: VirtualDuration = if case .seconds(let s) = interval { s } else { .seconds(0) }
            let due = device.apps[i].runtime.lastFetchAt.map { $0 + spacing <= now } ?? true
            list.add("fetchMode", "R28",
                              device.apps[i].manifest.declares(.fetch) && policy.appRefreshRun != nil,
                              policy.appRefreshRun == nil ? "background fetch exists from iOS 7" : "the fetch background mode")
            list.add("fetchInterval", "R28", interval != .never && due, "minimum background fetch interval")
        }
        let state = device.apps[i].state
        list.add("notInForeground", "R3", !(state == .active || state == .inactive),
                          "the system launches apps into the background only")
        list.add("batteryNotCritical", "R25", c.batteryLevel > policy.criticalBatteryLevel || c.charging,
                          "battery \(c.batteryLevel) %, critical at \(policy.criticalBatteryLevel) % unless charging")
        list.add("lowPowerModeOff", "R18", !c.lowPowerMode, "Low Power Mode turns Background App Refresh off")
        list.add("backgroundAppRefreshDevice", "R18", c.backgroundAppRefresh, "the device's switch")
        list.add("backgroundAppRefreshApp", "R18", device.apps[i].settings.backgroundAppRefresh, "the app's switch")
        if !isProcessing, list.isOpen {
            let next: VirtualInstant?
            if let known = predicted {
                next = known
            } else {
                next = atPredictedUse ? nil : nextPredictedLaunch(i)
                predicted = .some(next)
            }
            list.add("usagePrediction", "R26", atPredictedUse || next == nil,
                              next.map { "held for the predicted use; launches at \($0)" } ?? "no usage pattern to wait for")
        }
        list.add("notForceQuit", "R25", !device.apps[i].runtime.forceQuit,
                          "force-quit apps wait for the user to launch them (R5)")
        if !isProcessing, list.isOpen {
            let used = budgetUsed(i)
            let budget = dailyBudget(i)
            list.add("budget", "R27", used < budget, "\(used) of \(budget) discretionary launches used today")
        }
        let spacing = policy.minimumLaunchSpacing
        let last = device.apps[i].runtime.lastDiscretionaryLaunchAt
        list.add("rateLimit", "R25", last.map { $0 + spacing <= now } ?? true,
                          last.map { "last discretionary launch at \($0)" } ?? "no launch yet")
        list.add("noOpenRun", "R25", !device.apps[i].runtime.hasOpenRun, "one discretionary run at a time per app")
        return list
    }

    /// `setMinimumBackgroundFetchInterval` (R28).
    public mutating func setFetchInterval(_ bundleId: String, _ interval: FetchInterval) throws {
        let i = try slot(of: bundleId)
        device.apps[i].runtime.fetchInterval = interval
        let value: EventValue = switch interval {
        case .never: "never"
        case .minimum: "minimum"
        case .seconds(let s): .seconds(s)
        }
        emit(.fetchIntervalChanged, bundleId: bundleId, data: ["interval": value])
    }
}
