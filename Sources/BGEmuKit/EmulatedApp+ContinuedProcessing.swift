import Foundation

/// Continued processing tasks (R41): their launch handlers registered for a wildcard identifier, their tasks, and
/// their progress sent to the service.
extension EmulatedApp {
    /// The launch handler for `identifier`: registered for it, or for the wildcard identifier it is an instance of
    /// (`com.example.app.export.*` for `com.example.app.export.42`). Call it with `lock` held.
    func launchHandlerLocked(for identifier: String) -> (queue: DispatchQueue?, body: (BGTask) -> Void)? {
        if let exact = handlers[identifier] { return exact }
        return handlers.first { pattern, _ in
            pattern.hasSuffix(".*") && identifier.count > pattern.count - 1 && identifier.hasPrefix(pattern.dropLast())
        }?.value
    }

    /// The task a `run.started` event of a BGTask kind hands its launch handler.
    func bgTask(for event: DeviceEvent, runId: String, identifier: String) -> BGTask {
        switch event.string("kind") {
        case "processing":
            return BGProcessingTask(identifier: identifier, runId: runId, app: self)
        case "continuedProcessing":
            if #available(iOS 26.0, *) {
                return BGContinuedProcessingTask(
                    identifier: identifier, runId: runId, app: self, title: event.string("title") ?? "",
                    subtitle: event.string("subtitle") ?? "")
            }
            return BGTask(identifier: identifier, runId: runId, app: self)
        default:
            return BGAppRefreshTask(identifier: identifier, runId: runId, app: self)
        }
    }

    /// Sends a continued processing task's progress at once (at the virtual instant the app reports it). A run
    /// that has ended refuses it, which iOS ignores too.
    func reportProgress(_ runId: String, _ report: ProgressReport) {
        attempt { try service.reportProgress(bundleId, runId: runId, report) }
    }

    /// The user cancels the app's running continued processing task `identifier` from the system's interface: its
    /// expiration handler runs before this returns; the app must complete the task within the grace period, or
    /// it is terminated (R41, R22). Throws ``BGEmuError/problem(_:)`` (`notFound`) when the app runs no such task.
    public func cancelContinuedProcessingTask(
        identifier: String, isolation: isolated (any Actor)? = #isolation
    ) async throws {
        let runId = lock.withLock { tasks.first { $0.value.identifier == identifier }?.key }
        guard let runId else {
            throw BGEmuError.problem(ServiceProblem(status: 404, code: "notFound", detail: "\(bundleId) runs no task \(identifier)"))
        }
        try await device.perform { try service.cancelContinuedProcessing(bundleId, runId: runId) }
    }

    /// The wire options of a continued processing request, nil for the other kinds.
    static func continuedOptions(_ request: BGTaskRequest) -> ContinuedRequestBody? {
        guard #available(iOS 26.0, *), let continued = request as? BGContinuedProcessingTaskRequest else { return nil }
        return ContinuedRequestBody(
            title: continued.title, subtitle: continued.subtitle,
            strategy: continued.strategy == .fail ? "fail" : "queue",
            requiresGPU: continued.requiredResources.contains(.gpu))
    }

    /// The pending continued processing request a listing answers (a queued one, R41).
    static func continuedRequest(_ body: TaskRequestBody) -> BGTaskRequest? {
        guard #available(iOS 26.0, *), body.kind == "continuedProcessing" else { return nil }
        let request = BGContinuedProcessingTaskRequest(
            identifier: body.identifier, title: body.continued?.title ?? "", subtitle: body.continued?.subtitle ?? "")
        request.strategy = body.continued?.strategy == "fail" ? .fail : .queue
        request.requiredResources = body.continued?.requiresGPU == true ? .gpu : .default
        return request
    }
}
