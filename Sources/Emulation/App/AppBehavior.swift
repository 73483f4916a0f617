/// How a scripted app answers by itself, so that a run needs no client in the loop.
public struct AppBehavior: Sendable, Codable, Equatable {
    /// The answer to runs of each kind; a kind with no entry waits for the client.
    public var runs: [RunKind: RunBehavior]
    /// Begins a background task each time the app enters the background.
    public var onEnterBackground: TaskBehavior?

    public init(runs: [RunKind: RunBehavior] = [:], onEnterBackground: TaskBehavior? = nil) {
        self.runs = runs
        self.onEnterBackground = onEnterBackground
    }
}

/// A scripted answer to a run.
public struct RunBehavior: Sendable, Codable, Equatable {
    /// Seconds after the start at which the app completes; nil never completes (to exercise expiration).
    public var completeAfter: VirtualDuration?
    /// The result it reports: `success`/`failure` for BGTasks, `newData`/`noData`/`failed` for fetches and pushes.
    public var result: RunResult
    /// Whether the handler submits its request again (R21), and how far ahead its earliest begin date is.
    public var resubmit: Bool
    public var resubmitAfter: VirtualDuration?

    public init(completeAfter: VirtualDuration?, result: RunResult, resubmit: Bool = false, resubmitAfter: VirtualDuration? = nil) {
        self.completeAfter = completeAfter
        self.result = result
        self.resubmit = resubmit
        self.resubmitAfter = resubmitAfter
    }
}

/// A scripted `beginBackgroundTask` when the app enters the background.
public struct TaskBehavior: Sendable, Codable, Equatable {
    public var name: String?
    /// Seconds after which the app ends the task; nil never ends it (the watchdog will, R12).
    public var endAfter: VirtualDuration?
    /// Whether the expiration handler ends the task (the well-behaved pattern of seed 000).
    public var endOnExpiration: Bool

    public init(name: String? = nil, endAfter: VirtualDuration? = nil, endOnExpiration: Bool = true) {
        self.name = name
        self.endAfter = endAfter
        self.endOnExpiration = endOnExpiration
    }
}
