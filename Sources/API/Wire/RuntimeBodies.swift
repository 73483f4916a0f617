import Emulation

/// A background task as answered.
struct BackgroundTaskBody: Encodable {
    var task: BackgroundTask

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(task.id, forKey: AnyKey("id"))
        try c.encode(task.name, forKey: AnyKey("name"))
        try c.encode(RFC3339.format(task.beganAt), forKey: AnyKey("beganAt"))
        try c.encode(task.state.rawValue, forKey: AnyKey("state"))
        try c.encode(task.endedAt.map(RFC3339.format), forKey: AnyKey("endedAt"))
    }
}

/// A pending task request as answered.
struct TaskRequestBody: Encodable {
    var request: TaskRequest

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(request.kind.rawValue, forKey: AnyKey("kind"))
        try c.encode(request.identifier, forKey: AnyKey("identifier"))
        try c.encode(request.earliestBeginDate.map(RFC3339.format), forKey: AnyKey("earliestBeginDate"))
        try c.encode(request.requiresNetworkConnectivity, forKey: AnyKey("requiresNetworkConnectivity"))
        try c.encode(request.requiresExternalPower, forKey: AnyKey("requiresExternalPower"))
        try c.encode(RFC3339.format(request.submittedAt), forKey: AnyKey("submittedAt"))
        if let continued = request.continued {
            try c.encode(continued.title, forKey: AnyKey("title"))
            try c.encode(continued.subtitle, forKey: AnyKey("subtitle"))
            try c.encode(continued.strategy.rawValue, forKey: AnyKey("strategy"))
            try c.encode(continued.requiresGPU, forKey: AnyKey("requiresGPU"))
        }
    }
}

/// A run as answered.
struct RunBody: Encodable {
    var run: Run

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(run.id, forKey: AnyKey("id"))
        try c.encode(run.kind.rawValue, forKey: AnyKey("kind"))
        try c.encode(run.reason, forKey: AnyKey("reason"))
        try c.encode(run.identifier, forKey: AnyKey("identifier"))
        try c.encode(RFC3339.format(run.startedAt), forKey: AnyKey("startedAt"))
        try c.encode(RFC3339.format(run.deadline), forKey: AnyKey("deadline"))
        try c.encode(run.state.rawValue, forKey: AnyKey("state"))
        try c.encode(run.result?.rawValue, forKey: AnyKey("result"))
        try c.encode(run.endedAt.map(RFC3339.format), forKey: AnyKey("endedAt"))
        try c.encode(run.launchedApp, forKey: AnyKey("launchedApp"))
        if let progress = run.progress {
            var p = c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("progress"))
            try p.encode(progress.completedUnitCount, forKey: AnyKey("completedUnitCount"))
            try p.encode(progress.totalUnitCount, forKey: AnyKey("totalUnitCount"))
            try p.encode(progress.title, forKey: AnyKey("title"))
            try p.encode(progress.subtitle, forKey: AnyKey("subtitle"))
            try p.encode(RFC3339.format(progress.advancedAt), forKey: AnyKey("advancedAt"))
        }
    }
}

/// Why a request would or would not run.
struct EligibilityBody: Encodable {
    var eligibility: Eligibility

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(eligibility.identifier, forKey: AnyKey("identifier"))
        try c.encode(eligibility.kind.rawValue, forKey: AnyKey("kind"))
        try c.encode(eligibility.eligible, forKey: AnyKey("eligible"))
        try c.encode(eligibility.nextOpportunityAt.map(RFC3339.format), forKey: AnyKey("nextOpportunityAt"))
        try c.encode(eligibility.predictedLaunchAt.map(RFC3339.format), forKey: AnyKey("predictedLaunchAt"))
        try c.encode(eligibility.firstRunAt.map(RFC3339.format), forKey: AnyKey("firstRunAt"))
        try c.encode(eligibility.blockedBy, forKey: AnyKey("blockedBy"))
        try c.encode(eligibility.conditions.map(ConditionBody.init), forKey: AnyKey("conditions"))
    }

    struct ConditionBody: Encodable {
        var name: String
        var rule: String
        var met: Bool
        var detail: String
        init(_ condition: EligibilityCondition) {
            name = condition.name
            rule = condition.rule
            met = condition.met
            detail = condition.detail
        }
    }
}

/// `{interval}` of `PUT …/fetch-interval`: seconds, `"minimum"` or `"never"`.
struct FetchIntervalBody: Codable {
    var interval: FetchInterval

    init(_ interval: FetchInterval) { self.interval = interval }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["interval"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        interval = try c.decode(FetchIntervalCoding.self, forKey: AnyKey("interval")).interval
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(FetchIntervalCoding(interval), forKey: AnyKey("interval"))
    }
}
