import Foundation

/// What the app's code asks of the system, sent to the service at once (blocking). Calls that cannot throw on iOS
/// keep a failure to reach the service for the harness call that runs them, which throws it.
extension EmulatedApp {
    func register(_ identifier: String, queue: DispatchQueue?, _ handler: @escaping (BGTask) -> Void) -> Bool {
        guard permittedIdentifiers.contains(identifier) else { return false }
        return lock.withLock {
            guard launching, handlers[identifier] == nil else { return false }
            handlers[identifier] = (queue, handler)
            registered.append(identifier)
            if let queue, !handlerQueues.contains(where: { $0 === queue }) {
                handlerQueues.append(queue)
                queue.setSpecific(key: Self.handlerQueueKey, value: true)
            }
            return true
        }
    }

    func submit(_ request: BGTaskRequest) throws {
        try appCall { try sendSubmit(request) }
    }

    private func sendSubmit(_ request: BGTaskRequest) throws {
        try launchIfPending()
        let wallNow = Date()
        let virtualNow = try service.clockNow()
        var body = TaskRequestBody(
            kind: request.kind, identifier: request.identifier,
            earliestBeginDate: request.earliestBeginDate.map { VirtualTime.toDevice($0, virtualNow: virtualNow, wallNow: wallNow) })
        if let processing = request as? BGProcessingTaskRequest {
            body.requiresNetworkConnectivity = processing.requiresNetworkConnectivity
            body.requiresExternalPower = processing.requiresExternalPower
        }
        body.continued = Self.continuedOptions(request)
        do {
            try service.submit(bundleId, body)
        } catch let problem as ServiceProblem {
            throw Self.submitError(problem)
        }
    }

    /// The error `submit` throws for the service's refusal: Apple's `BGTaskScheduler.Error`, but for the crash iOS
    /// answers a request whose identifier has no launch handler (R16).
    static func submitError(_ problem: ServiceProblem) -> any Error {
        if problem.code == "noLaunchHandler" { return BGEmuError.appCrashed(problem.detail ?? "no launch handler") }
        return BGTaskScheduler.Error.refusing(problem)
    }

    func cancelTaskRequest(_ identifier: String) {
        attempt { try service.cancelTaskRequest(bundleId, identifier: identifier) }
    }

    func cancelAllTaskRequests() {
        attempt { try service.cancelAllTaskRequests(bundleId) }
    }

    func pendingTaskRequests() -> [BGTaskRequest] {
        let wallNow = Date()
        guard let virtualNow = attempt({ try service.clockNow() }),
              let pending = attempt({ try service.pendingTaskRequests(bundleId) }) else { return [] }
        return pending.map { body in
            let request: BGTaskRequest
            if let continued = Self.continuedRequest(body) {
                request = continued
            } else if body.kind == "processing" {
                let processing = BGProcessingTaskRequest(identifier: body.identifier)
                processing.requiresNetworkConnectivity = body.requiresNetworkConnectivity
                processing.requiresExternalPower = body.requiresExternalPower
                request = processing
            } else {
                request = BGAppRefreshTaskRequest(identifier: body.identifier)
            }
            request.earliestBeginDate = body.earliestBeginDate.map { VirtualTime.toWall($0, virtualNow: virtualNow, wallNow: wallNow) }
            return request
        }
    }

    /// Ends the run on the service, at the end of the current turn when one runs: the device suspends the app
    /// once it has returned, not inside the app's call (R23).
    func completeRun(_ runId: String, _ completion: RunCompletion) {
        release { [self] in
            attempt { try service.completeRun(bundleId, runId: runId, completion) }
            busy.close(BusyLedger.run(runId))
        }
    }

    func beginBackgroundTask(name: String?, expirationHandler: (() -> Void)?) -> UIBackgroundTaskIdentifier {
        guard let began = attempt({ () -> String? in
            try launchIfPending()
            return try service.beginBackgroundTask(bundleId, name: name)
        }), let taskId = began else { return .invalid }
        busy.open(BusyLedger.backgroundTask(taskId))
        return BackgroundTaskRegistry.shared.add(.init(app: self, taskId: taskId, expirationHandler: expirationHandler))
    }

    /// Ends the background task on the service, at the end of the current turn when one runs (R13).
    func endBackgroundTask(_ taskId: String) {
        release { [self] in
            attempt { try service.endBackgroundTask(bundleId, taskId: taskId) }
            busy.close(BusyLedger.backgroundTask(taskId))
        }
    }

    func setFetchInterval(_ interval: TimeInterval) {
        let value: JSONValue = interval >= UIApplication.backgroundFetchIntervalNever ? .string("never")
            : interval <= UIApplication.backgroundFetchIntervalMinimum ? .string("minimum")
            : .number(min(interval, 604_800))
        attempt {
            try launchIfPending()
            try service.setFetchInterval(bundleId, value)
        }
    }

    func status() -> AppStatus? {
        attempt { try service.appStatus(bundleId) }
    }

    /// Runs a call of the app's code that cannot throw on iOS: a refusal of the service (a run completed twice, a
    /// task that ended already) is what iOS ignores too; a failure to reach the service is kept for the harness.
    @discardableResult
    func attempt<T>(_ call: () throws -> T) -> T? {
        do {
            return try appCall(call)
        } catch is ServiceProblem {
            return nil
        } catch {
            device.keepFailure(error)
            return nil
        }
    }

    /// Runs a call of the app's code to the service, counted while it is under way: a completion called outside a
    /// turn is not sent meanwhile (``sendOutsideReleases()``). While the device's clock follows real time, the call
    /// first catches the clock up to the real time elapsed (``EmulatedDevice/catchUpWithRealTime()``), so that it is
    /// stamped when it was made.
    func appCall<T>(_ call: () throws -> T) rethrows -> T {
        lock.withLock { callsInFlight += 1 }
        defer {
            lock.withLock {
                callsInFlight -= 1
                lastCallEnded = .now
            }
        }
        device.catchUpWithRealTime()
        return try call()
    }
}
