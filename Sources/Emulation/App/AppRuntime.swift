/// What the system tracks of an app as it runs: its background time, tasks, requests, runs, usage and budget.
public struct AppRuntime: Sendable, Codable, Equatable {
    /// When the app last entered the background.
    public var enteredBackgroundAt: VirtualInstant?
    /// Until when `applicationDidEnterBackground` may still run (R2).
    public var lifecycleGraceEndsAt: VirtualInstant?
    /// The end of the current background-task allowance window (R9–R12).
    public var allowanceEndsAt: VirtualInstant?
    /// Open tasks, then the most recent ended ones.
    public var backgroundTasks: [BackgroundTask] = []
    /// Pending `BGTaskScheduler` requests (R17).
    public var taskRequests: [TaskRequest] = []
    /// Runs, oldest first; the history is capped.
    public var runs: [Run] = []
    public var fetchInterval: FetchInterval = .never
    public var lastFetchAt: VirtualInstant?
    /// When the user launched the app (the predictive engine's input, R26), most recent last.
    public var launchHistory: [VirtualInstant] = []
    /// Force-quit and not launched by the user since (R5).
    public var forceQuit = false
    /// The last discretionary launch, for rate limiting (R25).
    public var lastDiscretionaryLaunchAt: VirtualInstant?
    public var budget = LaunchBudget()
    /// Deferred pushes and recent background deliveries (R30); nil until the first push.
    public var pushes: AppPushes?
    /// Pending local notifications, soonest first (R40); nil until the first one.
    public var notifications: [LocalNotification]?
    /// Background URL sessions (R32–R34).
    @StoredDefault public var urlSessions: [BackgroundURLSession] = []
    /// Their transfers: open ones, then the most recent ended ones.
    @StoredDefault public var transfers: [Transfer] = []
    /// Continuous activities: audio, location, VoIP, accessories (R35–R38).
    @StoredDefault public var activities = ActivityRuntime()

    public init() {}

    /// How many ended tasks and runs are kept for the API's lists.
    public static let historyLimit = 200
    /// How many user launches the predictive engine remembers.
    public static let launchHistoryLimit = 60

    public var openTasks: [BackgroundTask] { backgroundTasks.filter(\.isOpen) }
    public var openRuns: [Run] { runs.filter(\.isOpen) }
    /// Whether a task is open, without copying the list (the clock's advance asks often). By index: iterating would
    /// copy each task out, retaining and releasing its strings.
    public var hasOpenTask: Bool { backgroundTasks.indices.contains { backgroundTasks[$0].isOpen } }
    /// Whether a run is open, without copying the history or its runs (see ``hasOpenTask``).
    public var hasOpenRun: Bool { runs.indices.contains { runs[$0].isOpen } }

    /// Background pushes delivered after `instant` (R30's hourly count), read in place.
    func pushesDelivered(after instant: VirtualInstant) -> Int {
        guard let pushes else { return 0 }
        return pushes.recentDeliveries.reduce(0) { $1 > instant ? $0 + 1 : $0 }
    }

    /// Whether a push waits deferred (R30), read in place (see ``hasOpenTask``).
    var hasDeferredPush: Bool {
        guard let pushes else { return false }
        return !pushes.deferred.isEmpty
    }
}

/// An app's budget of discretionary launches for one virtual day (R27).
public struct LaunchBudget: Sendable, Codable, Equatable {
    /// The virtual day (days since 1970, UTC) the count belongs to.
    public var day: Int64 = 0
    /// Discretionary launches used that day.
    public var used: Int = 0
    /// 0.25–2: grows when the app finishes fast and truthfully, shrinks when it runs to expiration.
    public var score: Double = 1

    public init() {}
}
