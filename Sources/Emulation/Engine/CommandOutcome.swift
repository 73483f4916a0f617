/// What applying a ``DeviceCommand`` gave, besides the device it changed: what routes answer with. Only the
/// values of the command's kind are set.
public struct CommandOutcome: Sendable, Equatable {
    /// How many events the command emitted.
    public var eventsEmitted = 0
    /// An `advance` that `stopAtAppCode` stopped before its target.
    public var stopped = false
    /// The app installed, with what installing it set.
    public var app: App?
    /// The app's settings after `updateSettings`.
    public var settings: AppSettings?
    /// The task request submitted.
    public var taskRequest: TaskRequest?
    /// The run a command started or changed (`simulateLaunch`, `finishURLSessionEvents`, `newsstandIssue`, a continued
    /// processing request's submit, progress or cancel).
    public var run: Run?
    /// The background task begun; nil after `beginBackgroundTask` when it answered `UIBackgroundTaskInvalid`
    /// (R14), see `backgroundTaskInvalid`.
    public var backgroundTask: BackgroundTask?
    /// `beginBackgroundTask` answered `UIBackgroundTaskInvalid`: nothing began (R14).
    public var backgroundTaskInvalid = false
    /// Whether `makeURLSession` made a new session (false: it reconnected to one).
    public var sessionCreated: Bool?
    /// The transfer enqueued or cancelled.
    public var transfer: Transfer?
    /// What APNs and the device did with a push.
    public var push: PushOutcome?
    /// The notification scheduled.
    public var notification: LocalNotification?
    /// What `setActivity` did.
    public var activity: ActivityOutcome?
    /// The apps a location change or an accessory's data woke.
    public var wokenApps: [String]?

    public init() {}
}
