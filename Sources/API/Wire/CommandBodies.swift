import Emulation

/// `POST …/clock/advance`: exactly one of `seconds` and `to`.
struct AdvanceRequest: Decodable {
    var seconds: Double?
    var to: String?
    /// Stop after the first instant that calls a driven app's code (a client running the app's own code).
    var stopAtAppCode: Bool

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["seconds", "to", "stopAtAppCode"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        seconds = try c.decodeIfPresent(Double.self, forKey: AnyKey("seconds"))
        to = try c.decodeIfPresent(String.self, forKey: AnyKey("to"))
        stopAtAppCode = try c.decodeIfPresent(Bool.self, forKey: AnyKey("stopAtAppCode")) ?? false
        guard (seconds == nil) != (to == nil) else {
            throw EmulationError.invalid([FieldIssue("seconds", "give exactly one of seconds and to")])
        }
        if let seconds, !(seconds >= 0 && seconds <= DeviceEngine.maximumAdvance.seconds) {
            throw EmulationError.invalid([FieldIssue("seconds", "must be a number of seconds from 0 to 2592000 (30 days)")])
        }
    }

    /// The command: by `seconds` from the device's now, or to the date-time `to` (read when applied).
    var command: DeviceCommand {
        .advance(seconds.map { .after(.seconds($0)) } ?? .rfc3339(to ?? ""), stopAtAppCode: stopAtAppCode)
    }
}

/// `POST …/launch`'s optional body: the identifiers the app's launch registered with `BGTaskScheduler` (R16).
struct LaunchRequest: Decodable {
    var launchHandlers: [String]?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["launchHandlers"])
        launchHandlers = try decoder.container(keyedBy: AnyKey.self).decodeIfPresent([String].self, forKey: AnyKey("launchHandlers"))
    }
}

/// `POST …/background-tasks`.
struct BeginTaskRequest: Decodable {
    var name: String?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["name"])
        name = try decoder.container(keyedBy: AnyKey.self).decodeIfPresent(String.self, forKey: AnyKey("name"))
        if let name, let problem = NameRule.problem(name, minimum: 0, maximum: 200) {
            throw EmulationError.invalid([FieldIssue("name", problem)])
        }
    }
}

/// `POST …/task-requests` (`BGTaskScheduler.submit`).
struct SubmitTaskRequest: Decodable {
    var kind: TaskRequestKind
    var identifier: String
    var earliestBeginDate: String?
    var requiresNetworkConnectivity: Bool
    var requiresExternalPower: Bool
    /// Continued processing requests only (R41).
    var continued: ContinuedProcessingOptions?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: [
            "kind", "identifier", "earliestBeginDate", "requiresNetworkConnectivity", "requiresExternalPower",
            "title", "subtitle", "strategy", "requiresGPU",
        ])
        let c = try decoder.container(keyedBy: AnyKey.self)
        let kindText = try c.decode(String.self, forKey: AnyKey("kind"))
        guard let kind = TaskRequestKind(rawValue: kindText) else {
            throw EmulationError.invalid([FieldIssue("kind", "must be appRefresh, processing or continuedProcessing")])
        }
        self.kind = kind
        identifier = try c.decode(String.self, forKey: AnyKey("identifier"))
        earliestBeginDate = try c.decodeIfPresent(String.self, forKey: AnyKey("earliestBeginDate"))
        requiresNetworkConnectivity = try c.decodeIfPresent(Bool.self, forKey: AnyKey("requiresNetworkConnectivity")) ?? false
        requiresExternalPower = try c.decodeIfPresent(Bool.self, forKey: AnyKey("requiresExternalPower")) ?? false
        if kind != .processing, requiresNetworkConnectivity || requiresExternalPower {
            throw EmulationError.invalid([FieldIssue(
                requiresExternalPower ? "requiresExternalPower" : "requiresNetworkConnectivity",
                "only a processing request has it (BGProcessingTaskRequest)")])
        }
        let title = try c.decodeIfPresent(String.self, forKey: AnyKey("title"))
        let subtitle = try c.decodeIfPresent(String.self, forKey: AnyKey("subtitle"))
        let strategyText = try c.decodeIfPresent(String.self, forKey: AnyKey("strategy"))
        let requiresGPU = try c.decodeIfPresent(Bool.self, forKey: AnyKey("requiresGPU"))
        guard kind == .continuedProcessing else {
            let given = [("title", title != nil), ("subtitle", subtitle != nil), ("strategy", strategyText != nil),
                         ("requiresGPU", requiresGPU != nil)].first { $0.1 }
            if let given {
                throw EmulationError.invalid([FieldIssue(given.0, "only a continued processing request has it (BGContinuedProcessingTaskRequest)")])
            }
            return
        }
        guard let title else { throw EmulationError.invalid([FieldIssue("title", "a continued processing request has a title")]) }
        guard let subtitle else { throw EmulationError.invalid([FieldIssue("subtitle", "a continued processing request has a subtitle")]) }
        var strategy = ContinuedProcessingStrategy.queue
        if let strategyText {
            guard let parsed = ContinuedProcessingStrategy(rawValue: strategyText) else {
                throw EmulationError.invalid([FieldIssue("strategy", "must be fail or queue")])
            }
            strategy = parsed
        }
        continued = ContinuedProcessingOptions(title: title, subtitle: subtitle, strategy: strategy, requiresGPU: requiresGPU ?? false)
    }

    /// The submission to `bundleId`; `earliestBeginDate` is read when it is applied.
    func command(bundleId: String) -> DeviceCommand {
        .submitTaskRequest(bundleId: bundleId, TaskRequestDraft(
            kind: kind, identifier: identifier, earliestBeginDate: earliestBeginDate.map(CommandTime.rfc3339),
            requiresNetworkConnectivity: requiresNetworkConnectivity, requiresExternalPower: requiresExternalPower,
            continued: continued))
    }
}

/// `POST …/runs/{runId}/progress`: a continued processing task's progress, and its title and subtitle when
/// `updateTitle(_:subtitle:)` changed them (R41).
struct RunProgressRequest: Decodable {
    var draft: RunProgressDraft

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["completedUnitCount", "totalUnitCount", "title", "subtitle"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        let completed = try c.decode(Int64.self, forKey: AnyKey("completedUnitCount"))
        let total = try c.decode(Int64.self, forKey: AnyKey("totalUnitCount"))
        guard completed >= 0 else { throw EmulationError.invalid([FieldIssue("completedUnitCount", "must be 0 or more")]) }
        guard total >= 0 else { throw EmulationError.invalid([FieldIssue("totalUnitCount", "must be 0 or more")]) }
        draft = RunProgressDraft(
            completedUnitCount: completed, totalUnitCount: total,
            title: try c.decodeIfPresent(String.self, forKey: AnyKey("title")),
            subtitle: try c.decodeIfPresent(String.self, forKey: AnyKey("subtitle")))
    }

    /// The report of `runId` of `bundleId`.
    func command(bundleId: String, runId: String) -> DeviceCommand {
        .reportRunProgress(bundleId: bundleId, runId: runId, draft)
    }
}

/// `POST …/runs/{runId}/complete`: `{success}` for BGTasks or `{result}` for fetches and pushes.
struct CompleteRunRequest: Decodable {
    var result: RunResult

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["success", "result"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        let success = try c.decodeIfPresent(Bool.self, forKey: AnyKey("success"))
        let text = try c.decodeIfPresent(String.self, forKey: AnyKey("result"))
        switch (success, text) {
        case (let success?, nil): result = success ? .success : .failure
        case (nil, let text?):
            guard let parsed = RunResult(rawValue: text), [.newData, .noData, .failed].contains(parsed) else {
                throw EmulationError.invalid([FieldIssue("result", "must be newData, noData or failed")])
            }
            result = parsed
        default:
            throw EmulationError.invalid([FieldIssue("success", "give exactly one of success and result")])
        }
    }
}

/// `PATCH /v1/devices/{deviceId}`: the name, and policy overrides (a null value removes one).
struct DevicePatch: Decodable {
    var name: String?
    var policy: [String: Double?]?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["name", "policy"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        name = try c.decodeIfPresent(String.self, forKey: AnyKey("name"))
        policy = try c.decodeIfPresent([String: Double?].self, forKey: AnyKey("policy"))
    }
}
