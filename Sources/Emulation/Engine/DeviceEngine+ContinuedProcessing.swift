/// `BGContinuedProcessingTaskRequest` / `BGContinuedProcessingTask` (iOS 26, R41): submitted from the foreground in
/// answer to the user, the task starts at once and keeps running when the user leaves the app, as long as it
/// reports progress; a task whose progress stalls, or that the user cancels, expires as other runs do (R22).
extension DeviceEngine {
    /// How long a continued processing run may go without its completed unit count growing before the system
    /// expires it (R41). Apple gives no figure ("The system prioritizes the termination of tasks that reflect
    /// minimal or no progress"); bgemu's choice, counted from the start and from each advance.
    public static let continuedProcessingStallLimit: VirtualDuration = .seconds(60)

    /// The most continued processing runs one app has open at once; a further request finds no room (R41).
    public static let continuedProcessingRunLimit = 1

    /// R41: the submit of a continued processing request (`submit` has checked the app runs and BGTaskScheduler
    /// exists). It starts at once when the app is in the foreground and has room; without room a `.queue` request
    /// waits, a `.fail` one is refused with `immediateRunIneligible`.
    mutating func submitContinuedProcessing(_ i: AppSlot, _ request: TaskRequest) throws {
        let app = device.apps[i]
        guard device.osVersion.major >= 26 else {
            try reject(i, request, "unavailable", "BGContinuedProcessingTaskRequest exists from iOS 26; this device runs \(device.osVersion).")
        }
        guard app.permits(request) else {
            try reject(i, request, "notPermitted",
                       "\(request.identifier) matches no wildcard identifier (\(app.bundleId).<context>.*) in BGTaskSchedulerPermittedIdentifiers.")
        }
        if !app.hasLaunchHandler(for: request) { try crashForMissingHandler(i, request) }
        guard app.state == .active else {
            try reject(i, request, "immediateRunIneligible",
                       "A continued processing request is submitted from the foreground; \(app.bundleId) is \(app.state.rawValue).")
        }
        let options = request.continued ?? ContinuedProcessingOptions(title: "", subtitle: "")
        let hasRoom = openContinuedRuns(i) < Self.continuedProcessingRunLimit
        if !hasRoom, options.strategy == .fail {
            try reject(i, request, "immediateRunIneligible",
                       "\(app.bundleId) already runs \(Self.continuedProcessingRunLimit) continued processing task(s); the strategy is fail.")
        }
        var pending = app.runtime.taskRequests.filter { $0.identifier != request.identifier }
        let replaced = pending.count != app.runtime.taskRequests.count
        if !hasRoom, pending.filter({ $0.kind == .continuedProcessing }).count >= Self.pendingLimit(.continuedProcessing) {
            try reject(i, request, "tooManyPendingTaskRequests",
                       "At most \(Self.pendingLimit(.continuedProcessing)) queued continued processing request(s) per app.")
        }
        emit(.taskRequestSubmitted, bundleId: app.bundleId, data: [
            "identifier": .string(request.identifier), "kind": .string(request.kind.rawValue),
            "earliestBeginDate": .null, "requiresNetworkConnectivity": false, "requiresExternalPower": false,
            "replaced": .bool(replaced), "title": .string(options.title), "subtitle": .string(options.subtitle),
            "strategy": .string(options.strategy.rawValue), "requiresGPU": .bool(options.requiresGPU),
            "queued": .bool(!hasRoom),
        ])
        if hasRoom {
            startContinuedProcessing(i, request, reason: "submitted")
        } else {
            pending.append(request)
            device.apps[i].runtime.taskRequests = pending
        }
    }

    /// Starts the run of a continued processing request; it lasts while its progress advances (R41).
    @discardableResult
    mutating func startContinuedProcessing(_ i: AppSlot, _ request: TaskRequest, reason: String) -> Run {
        device.apps[i].runtime.taskRequests.removeAll { $0.identifier == request.identifier }
        let options = request.continued ?? ContinuedProcessingOptions(title: "", subtitle: "")
        let run = startRun(
            i, kind: .continuedProcessing, reason: reason, identifier: request.identifier,
            duration: Self.continuedProcessingStallLimit,
            extra: ["title": .string(options.title), "subtitle": .string(options.subtitle)])
        guard let r = device.apps[i].runtime.runs.lastSlot(where: { $0.id == run.id }) else { return run }
        device.apps[i].runtime.runs[r].progress = RunProgress(
            completedUnitCount: 0, totalUnitCount: 0, title: options.title, subtitle: options.subtitle, advancedAt: now)
        return device.apps[i].runtime.runs[r]
    }

    /// R41: the app reports its task's progress (`task.progress`) and, when given, a new title and subtitle
    /// (`updateTitle(_:subtitle:)`). A completed count larger than the last one moves the stall deadline to
    /// `continuedProcessingStallLimit` from now; anything else leaves it where it was.
    @discardableResult
    public mutating func reportProgress(
        _ bundleId: String, runId: String, completedUnitCount: Int64, totalUnitCount: Int64, title: String? = nil,
        subtitle: String? = nil
    ) throws -> Run {
        let i = try slot(of: bundleId)
        guard let r = device.apps[i].runtime.runs.firstSlot(where: { $0.id == runId }) else {
            throw EmulationError.notFound(kind: "run", id: runId)
        }
        let run = device.apps[i].runtime.runs[r]
        guard run.kind == .continuedProcessing, var progress = run.progress else {
            throw EmulationError.conflict(
                code: "notContinuedProcessing", detail: "\(runId) is \(run.kind.rawValue.withIndefiniteArticle()) run: only a continued processing task reports progress.")
        }
        guard run.isOpen else {
            throw EmulationError.conflict(code: "runNotOpen", detail: "\(runId) is \(run.state.rawValue) already.")
        }
        guard completedUnitCount >= 0 else { throw EmulationError.unprocessable(field: "completedUnitCount", detail: "must be 0 or more") }
        guard totalUnitCount >= 0 else { throw EmulationError.unprocessable(field: "totalUnitCount", detail: "must be 0 or more") }
        let advanced = completedUnitCount > progress.completedUnitCount
        progress.completedUnitCount = completedUnitCount
        progress.totalUnitCount = totalUnitCount
        if let title { progress.title = title }
        if let subtitle { progress.subtitle = subtitle }
        if advanced, run.state == .running {
            progress.advancedAt = now
            device.apps[i].runtime.runs[r].deadline = now + Self.continuedProcessingStallLimit
            cancelTimers { $0 == .runDeadline(bundleId: bundleId, runId: runId) }
            schedule(.runDeadline(bundleId: bundleId, runId: runId), at: device.apps[i].runtime.runs[r].deadline)
        }
        device.apps[i].runtime.runs[r].progress = progress
        emit(.runProgress, bundleId: bundleId, data: [
            "runId": .string(runId), "completedUnitCount": .int(completedUnitCount),
            "totalUnitCount": .int(totalUnitCount), "title": .string(progress.title),
            "subtitle": .string(progress.subtitle), "advanced": .bool(advanced),
            "deadline": .instant(device.apps[i].runtime.runs[r].deadline),
        ])
        return device.apps[i].runtime.runs[r]
    }

    /// R41: the user cancels the task from the system's interface: its expiration handler is called now
    /// (`run.expiring`, reason `userCancelled`) and the grace period of R22 runs.
    @discardableResult
    public mutating func cancelContinuedProcessing(_ bundleId: String, runId: String) throws -> Run {
        let i = try slot(of: bundleId)
        guard let run = device.apps[i].runtime.runs.first(where: { $0.id == runId }) else {
            throw EmulationError.notFound(kind: "run", id: runId)
        }
        guard run.kind == .continuedProcessing else {
            throw EmulationError.conflict(
                code: "notContinuedProcessing", detail: "\(runId) is \(run.kind.rawValue.withIndefiniteArticle()) run: the user cancels only continued processing tasks.")
        }
        guard run.state == .running else {
            throw EmulationError.conflict(code: "runNotRunning", detail: "\(runId) is \(run.state.rawValue) already.")
        }
        runDeadlinePassed(bundleId, runId: runId, reason: "userCancelled")
        return device.apps[i].runtime.runs.first { $0.id == runId } ?? run
    }

    /// R41: a queued request starts once a continued processing run of the app has ended and left room.
    mutating func startQueuedContinuedProcessing(_ i: AppSlot) {
        guard device.apps[i].isRunning, openContinuedRuns(i) < Self.continuedProcessingRunLimit,
            let next = device.apps[i].runtime.taskRequests.first(where: { $0.kind == .continuedProcessing })
        else { return }
        startContinuedProcessing(i, next, reason: "queued")
    }

    /// R41 (Apple: "Queued BGContinuedProcessingTaskRequests will be cancelled when the user removes your app from
    /// the app switcher"): a force quit drops the queued requests.
    mutating func dropQueuedContinuedProcessing(_ i: AppSlot) {
        let queued = device.apps[i].runtime.taskRequests.filter { $0.kind == .continuedProcessing }
        guard !queued.isEmpty else { return }
        device.apps[i].runtime.taskRequests.removeAll { $0.kind == .continuedProcessing }
        for request in queued {
            emit(.taskRequestCancelled, bundleId: device.apps[i].bundleId, data: [
                "identifier": .string(request.identifier), "reason": "forceQuit",
            ])
        }
    }

    private func openContinuedRuns(_ i: AppSlot) -> Int {
        device.apps[i].runtime.runs.reduce(0) { $0 + ($1.kind == .continuedProcessing && $1.isOpen ? 1 : 0) }
    }
}
