/// `BGTaskScheduler`: submit, cancel, and the debugger's simulate calls (R15–R24).
extension DeviceEngine {
    /// The most pending requests of each kind per app (R17).
    public static func pendingLimit(_ kind: TaskRequestKind) -> Int { kind == .appRefresh ? 1 : 10 }

    /// `BGTaskScheduler.submit`. A refusal is recorded (`taskRequest.rejected`) and thrown as `refused`.
    public mutating func submit(_ bundleId: String, _ request: TaskRequest) throws {
        let i = try slot(of: bundleId)
        guard device.apps[i].isRunning else {
            throw EmulationError.conflict(
                code: "appNotRunning",
                detail: "\(bundleId) is \(device.apps[i].state.rawValue): its code cannot call BGTaskScheduler.submit.")
        }
        let app = device.apps[i]
        if !policy.bgTaskSchedulerAvailable {
            try reject(i, request, "unavailable", "BGTaskScheduler exists from iOS 13; this device runs \(device.osVersion).")
        }
        if request.kind == .continuedProcessing {
            try submitContinuedProcessing(i, request)  // R41
            return
        }
        // R15
        if !app.manifest.permittedIdentifiers.contains(request.identifier) {
            try reject(i, request, "notPermitted", "\(request.identifier) is not in BGTaskSchedulerPermittedIdentifiers.")
        }
        if let mode = request.kind.requiredMode, !app.manifest.declares(mode) {
            try reject(i, request, "notPermitted",
                       "\(request.kind.rawValue.withIndefiniteArticle(capitalized: true)) request needs the background mode \(mode.rawValue).")
        }
        // R16
        if !app.hasLaunchHandler(for: request) { try crashForMissingHandler(i, request) }
        // R18
        if !device.conditions.backgroundAppRefresh || !app.settings.backgroundAppRefresh || device.conditions.lowPowerMode {
            let why = device.conditions.lowPowerMode ? "Low Power Mode turns Background App Refresh off."
                : "Background App Refresh is off for \(device.conditions.backgroundAppRefresh ? "this app" : "the device")."
            try reject(i, request, "unavailable", why)
        }
        // R17: the same identifier replaces the pending one; otherwise the kind's limit holds.
        var pending = app.runtime.taskRequests.filter { $0.identifier != request.identifier }
        let replaced = pending.count != app.runtime.taskRequests.count
        if pending.filter({ $0.kind == request.kind }).count >= Self.pendingLimit(request.kind) {
            try reject(i, request, "tooManyPendingTaskRequests",
                       "At most \(Self.pendingLimit(request.kind)) pending \(request.kind.rawValue) request(s) per app.")
        }
        pending.append(request)
        device.apps[i].runtime.taskRequests = pending
        emit(.taskRequestSubmitted, bundleId: bundleId, data: [
            "identifier": .string(request.identifier), "kind": .string(request.kind.rawValue),
            "earliestBeginDate": request.earliestBeginDate.map(EventValue.instant) ?? .null,
            "requiresNetworkConnectivity": .bool(request.requiresNetworkConnectivity),
            "requiresExternalPower": .bool(request.requiresExternalPower), "replaced": .bool(replaced),
        ])
        reschedulePrediction(i)
    }

    /// `BGTaskScheduler.cancel(taskRequestWithIdentifier:)`.
    public mutating func cancelTaskRequest(_ bundleId: String, identifier: String) throws {
        let i = try slot(of: bundleId)
        guard device.apps[i].runtime.taskRequests.contains(where: { $0.identifier == identifier }) else {
            throw EmulationError.notFound(kind: "task request", id: identifier)
        }
        device.apps[i].runtime.taskRequests.removeAll { $0.identifier == identifier }
        emit(.taskRequestCancelled, bundleId: bundleId, data: ["identifier": .string(identifier)])
    }

    /// `BGTaskScheduler.cancelAllTaskRequests()`.
    public mutating func cancelAllTaskRequests(_ bundleId: String) throws {
        let i = try slot(of: bundleId)
        for request in device.apps[i].runtime.taskRequests {
            emit(.taskRequestCancelled, bundleId: bundleId, data: ["identifier": .string(request.identifier), "all": true])
        }
        device.apps[i].runtime.taskRequests = []
    }

    /// `_simulateLaunchForTaskWithIdentifier:` (R24): runs a pending request now, whatever the conditions.
    @discardableResult
    public mutating func simulateLaunch(_ bundleId: String, identifier: String) throws -> Run {
        let i = try slot(of: bundleId)
        guard let request = device.apps[i].runtime.taskRequests.first(where: { $0.identifier == identifier }) else {
            throw EmulationError.notFound(kind: "task request", id: identifier)
        }
        return launchRequest(i, request, reason: "simulateLaunch")
    }

    /// `_simulateExpirationForTaskWithIdentifier:` (R24): the running task's expiration handler is called now.
    public mutating func simulateExpiration(_ bundleId: String, identifier: String) throws {
        let i = try slot(of: bundleId)
        guard let run = device.apps[i].runtime.runs.first(where: { $0.identifier == identifier && $0.state == .running }) else {
            throw EmulationError.notFound(kind: "running task", id: identifier)
        }
        runDeadlinePassed(bundleId, runId: run.id, reason: "simulateExpiration")
    }

    /// Starts the run of a pending request; the request is used up (R21).
    @discardableResult
    mutating func launchRequest(_ i: AppSlot, _ request: TaskRequest, reason: String) -> Run {
        if request.kind == .continuedProcessing { return startContinuedProcessing(i, request, reason: reason) }
        device.apps[i].runtime.taskRequests.removeAll { $0.identifier == request.identifier }
        let duration = request.kind == .appRefresh ? policy.appRefreshRun : policy.processingRun
        return startRun(
            i, kind: request.kind == .appRefresh ? .appRefresh : .processing, reason: reason,
            identifier: request.identifier, duration: duration ?? .seconds(30),
            requiresExternalPower: request.requiresExternalPower,
            requiresNetworkConnectivity: request.requiresNetworkConnectivity)
    }

    /// R16: a request whose identifier has no launch handler raises `NSInternalInconsistencyException`.
    mutating func crashForMissingHandler(_ i: AppSlot, _ request: TaskRequest) throws -> Never {
        let reason = "No launch handler registered for task with identifier \(request.identifier)"
        emit(.appCrashed, bundleId: device.apps[i].bundleId, data: [
            "exception": "NSInternalInconsistencyException", "reason": .string(reason),
        ])
        terminate(i, reason: "crash", tellApp: false)
        throw EmulationError.refused(code: "noLaunchHandler", detail: reason + ": the app crashed.")
    }

    /// Records a refused submit (`taskRequest.rejected`) and throws it as `refused`.
    mutating func reject(_ i: AppSlot, _ request: TaskRequest, _ code: String, _ detail: String) throws -> Never {
        emit(.taskRequestRejected, bundleId: device.apps[i].bundleId, data: [
            "identifier": .string(request.identifier), "kind": .string(request.kind.rawValue), "code": .string(code),
            "detail": .string(detail),
        ])
        throw EmulationError.refused(code: code, detail: detail)
    }
}
