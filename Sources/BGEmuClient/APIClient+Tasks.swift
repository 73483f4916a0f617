extension APIClient {
    /// `POST …/task-requests` (`BGTaskScheduler.submit`): `kind`, `identifier` and the request's options.
    @discardableResult
    public func submitTaskRequest(_ device: String, _ bundleId: String, _ body: JSONValue) throws(ClientFailure) -> JSONValue {
        try json("POST", Self.appPath(device, bundleId, "task-requests"), body: body)
    }

    /// `GET …/task-requests`: the app's pending requests.
    public func taskRequests(_ device: String, _ bundleId: String) throws(ClientFailure) -> [JSONValue] {
        try json("GET", Self.appPath(device, bundleId, "task-requests"))["items"]?.arrayValue ?? []
    }

    /// `DELETE …/task-requests/{identifier}`, or every one of the app's when `identifier` is nil.
    public func cancelTaskRequests(_ device: String, _ bundleId: String, identifier: String? = nil) throws(ClientFailure) {
        let path = identifier.map { Self.appPath(device, bundleId, "task-requests", $0) } ?? Self.appPath(device, bundleId, "task-requests")
        _ = try send("DELETE", path)
    }

    /// `POST …/runs/{runId}/complete`: `{"success": …}` or a fetch's `{"result": …}`.
    @discardableResult
    public func completeRun(_ device: String, _ bundleId: String, run: String, _ body: JSONValue) throws(ClientFailure) -> JSONValue {
        try json("POST", Self.appPath(device, bundleId, "runs", run, "complete"), body: body)
    }

    /// `POST …/runs/{runId}/progress`: a continued processing task's progress (R41).
    @discardableResult
    public func reportProgress(_ device: String, _ bundleId: String, run: String, _ body: JSONValue) throws(ClientFailure) -> JSONValue {
        try json("POST", Self.appPath(device, bundleId, "runs", run, "progress"), body: body)
    }

    /// `POST …/runs/{runId}/cancel`: the user cancels a continued processing task (R41).
    @discardableResult
    public func cancelRun(_ device: String, _ bundleId: String, run: String) throws(ClientFailure) -> JSONValue {
        try json("POST", Self.appPath(device, bundleId, "runs", run, "cancel"))
    }

    /// `POST …/background-tasks` (`beginBackgroundTask`): the task, whose `id` is nil when the device begins none.
    public func beginBackgroundTask(_ device: String, _ bundleId: String, name: String?) throws(ClientFailure) -> JSONValue {
        try json("POST", Self.appPath(device, bundleId, "background-tasks"), body: .object(name.map { ["name": .string($0)] } ?? [:]))
    }

    /// `DELETE …/background-tasks/{taskId}` (`endBackgroundTask`).
    public func endBackgroundTask(_ device: String, _ bundleId: String, task: String) throws(ClientFailure) {
        _ = try send("DELETE", Self.appPath(device, bundleId, "background-tasks", task))
    }

    /// `GET …/task-requests/{identifier}/eligibility`: whether the pending request would run at the next
    /// opportunity, each condition with its rule, and when the next opportunity comes.
    public func eligibility(_ device: String, _ bundleId: String, identifier: String) throws(ClientFailure) -> JSONValue {
        try json("GET", Self.appPath(device, bundleId, "task-requests", identifier, "eligibility"))
    }

    /// `POST …/task-requests/{identifier}/simulate-launch` (the debugger's `_simulateLaunchForTaskWithIdentifier:`):
    /// the run started.
    public func simulateLaunch(_ device: String, _ bundleId: String, identifier: String) throws(ClientFailure) -> JSONValue {
        try json("POST", Self.appPath(device, bundleId, "task-requests", identifier, "simulate-launch"))
    }

    /// `POST …/task-requests/{identifier}/simulate-expiration` (`_simulateExpirationForTaskWithIdentifier:`): the
    /// run told to expire.
    public func simulateExpiration(_ device: String, _ bundleId: String, identifier: String) throws(ClientFailure) -> JSONValue {
        try json("POST", Self.appPath(device, bundleId, "task-requests", identifier, "simulate-expiration"))
    }

    /// The app whose run `run` is on the device (from its `run.started` event); nil when no run has that id.
    public func appOfRun(_ device: String, run: String) throws(ClientFailure) -> String? {
        let page = try json("GET", Self.devicePath(device, "events"), query: [("runId", run), ("type", "run.started"), ("limit", "1")])
        return page["items"]?.arrayValue?.first?["bundleId"]?.stringValue
    }
}
