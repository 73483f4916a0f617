/// Applying a ``DeviceCommand``: each case calls the engine method of the same name, with the times in the command
/// resolved against the engine's `now` here, so that every caller resolves them alike.
extension DeviceEngine {
    /// Applies `command` and answers what it gave. Errors are the engine methods' own (a push's rejection is the
    /// ``PushRejection`` APNs answers).
    @discardableResult
    public mutating func apply(_ command: DeviceCommand) throws -> CommandOutcome {
        let before = events.count
        var outcome = CommandOutcome()
        switch command {
        case .patchDevice(let name, let policy):
            if let name { rename(name) }
            if let policy {
                var overrides = device.policyOverrides
                for (name, value) in policy { overrides[name] = value }
                let issues = Profile.validate(overrides)
                guard issues.isEmpty else { throw EmulationError.invalid(issues) }
                setPolicyOverrides(overrides)
            }
        case .setConditions(let change):
            setConditions(try change.applied(to: device.conditions))
        case .reboot:
            reboot()
        case .advance(let time, let stopAtAppCode):
            outcome.stopped = try advance(to: try time.resolved(from: now, field: "to"), stoppingAtAppCode: stopAtAppCode)
        case .moveDevice(let latitude, let longitude):
            outcome.wokenApps = try moveDevice(latitude: latitude, longitude: longitude)
        case .accessoryData(let accessoryId, let transport):
            outcome.wokenApps = try accessoryData(accessoryId, transport: transport)

        case .install(let installation, let behavior, let maximumApps):
            if let maximumApps, device.apps.count >= maximumApps, device.app(installation.bundleId) == nil {
                throw EmulationError.conflict(code: "tooManyApps", detail: "A device holds at most \(maximumApps) apps.")
            }
            var app = try installation.validated(installedAt: now)
            app.behavior = behavior
            try install(app)
            outcome.app = app
        case .uninstall(let bundleId):
            try uninstall(bundleId)
        case .setBackgroundModes(let bundleId, let modes):
            try setBackgroundModes(bundleId, modes)
        case .updateSettings(let bundleId, let backgroundAppRefresh):
            guard var settings = device.app(bundleId)?.settings else { throw EmulationError.notFound(kind: "app", id: bundleId) }
            if let backgroundAppRefresh { settings.backgroundAppRefresh = backgroundAppRefresh }
            try setAppSettings(bundleId, settings)
            outcome.settings = settings

        case .launch(let bundleId, let handlers):
            try launch(bundleId, registering: handlers)
        case .background(let bundleId):
            try background(bundleId)
        case .foreground(let bundleId):
            try foreground(bundleId)
        case .forceQuit(let bundleId):
            try forceQuit(bundleId)
        case .terminate(let bundleId):
            try terminate(bundleId)

        case .beginBackgroundTask(let bundleId, let name):
            outcome.backgroundTask = try beginBackgroundTask(bundleId, name: name)
            outcome.backgroundTaskInvalid = outcome.backgroundTask == nil
        case .endBackgroundTask(let bundleId, let selector):
            try endBackgroundTask(bundleId, taskId: try taskId(bundleId, selector))

        case .submitTaskRequest(let bundleId, let draft):
            let request = try draft.request(submittedAt: now)
            try submit(bundleId, request)
            outcome.taskRequest = request
            if request.kind == .continuedProcessing {  // R41: started at once, unless queued
                outcome.run = device.app(bundleId)?.runtime.runs.last { $0.identifier == request.identifier && $0.isOpen }
            }
        case .cancelTaskRequest(let bundleId, let identifier):
            try cancelTaskRequest(bundleId, identifier: identifier)
        case .cancelAllTaskRequests(let bundleId):
            try cancelAllTaskRequests(bundleId)
        case .simulateLaunch(let bundleId, let identifier):
            outcome.run = try simulateLaunch(bundleId, identifier: identifier)
        case .simulateExpiration(let bundleId, let identifier):
            try simulateExpiration(bundleId, identifier: identifier)
        case .completeRun(let bundleId, let selector, let result):
            try completeRun(bundleId, runId: try runId(bundleId, selector), result: result)
        case .setFetchInterval(let bundleId, let interval):
            try setFetchInterval(bundleId, interval)
        case .reportRunProgress(let bundleId, let runId, let draft):
            outcome.run = try reportProgress(
                bundleId, runId: runId, completedUnitCount: draft.completedUnitCount, totalUnitCount: draft.totalUnitCount,
                title: draft.title, subtitle: draft.subtitle)
        case .cancelContinuedProcessing(let bundleId, let runId):
            outcome.run = try cancelContinuedProcessing(bundleId, runId: runId)

        case .push(let request):
            outcome.push = try receivePush(request)
        case .scheduleNotification(let bundleId, let draft):
            let notification = try draft.notification(scheduledAt: now)
            try scheduleNotification(bundleId, notification)
            outcome.notification = notification
        case .cancelNotification(let bundleId, let identifier):
            try cancelNotification(bundleId, identifier: identifier)

        case .makeURLSession(let bundleId, let identifier, let discretionary, let sendsLaunchEvents):
            outcome.sessionCreated = try makeURLSession(
                bundleId, identifier: identifier, discretionary: discretionary, sendsLaunchEvents: sendsLaunchEvents)
        case .enqueueTransfer(let bundleId, let session, let draft):
            outcome.transfer = try enqueueTransfer(
                bundleId, session: session, kind: draft.kind, bytes: draft.bytes,
                earliestBeginDate: try draft.earliestBeginDate.map { try $0.resolved(from: now, field: "earliestBeginDate") },
                countOfBytesClientExpectsToReceive: draft.countOfBytesClientExpectsToReceive)
        case .cancelTransfer(let bundleId, let transferId):
            outcome.transfer = try cancelTransfer(bundleId, transferId: transferId)
        case .finishURLSessionEvents(let bundleId, let session):
            outcome.run = try finishURLSessionEvents(bundleId, session: session)

        case .setActivity(let bundleId, let activity, let active, let keepAliveInterval):
            outcome.activity = try setActivity(bundleId, activity, active: active, keepAliveInterval: keepAliveInterval)
        case .newsstandIssue(let bundleId, let name):
            outcome.run = try newsstandIssue(bundleId, name: name)
        }
        outcome.eventsEmitted = events.count - before
        return outcome
    }

    /// The id of the run `selector` names.
    private func runId(_ bundleId: String, _ selector: RunSelector) throws -> String {
        switch selector {
        case .id(let id): return id
        case .latestOpen(let runId, let identifier):
            let runs = device.app(bundleId)?.runtime.openRuns ?? []
            let run = runs.last { run in (runId == nil || run.id == runId) && (identifier == nil || run.identifier == identifier) }
            guard let run else {
                throw EmulationError.conflict(
                    code: "noOpenRun", detail: "\(bundleId) has no open run\(identifier.map { " for \($0)" } ?? "") to complete.")
            }
            return run.id
        }
    }

    /// The id of the background task `selector` names.
    private func taskId(_ bundleId: String, _ selector: BackgroundTaskSelector) throws -> String {
        switch selector {
        case .id(let id): return id
        case .latestOpen(let taskId, let name):
            let task = (device.app(bundleId)?.runtime.openTasks ?? []).last { task in
                (taskId == nil || task.id == taskId) && (name == nil || task.name == name)
            }
            guard let task else {
                throw EmulationError.conflict(code: "noOpenTask", detail: "\(bundleId) has no open background task to end.")
            }
            return task.id
        }
    }
}
