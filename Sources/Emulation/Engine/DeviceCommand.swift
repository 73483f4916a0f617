/// Everything a device is told to do, as a value: what a REST route's request and a scenario's step both decode
/// into, applied with ``DeviceEngine/apply(_:)``. Times in a command are resolved against the engine's own `now`
/// when it is applied (``CommandTime``), so that a route and a scenario resolve them the same way.
public enum DeviceCommand: Sendable, Equatable {
    // MARK: The device

    /// Renames the device and merges policy overrides into its own (a nil value removes one); the merged overrides
    /// are validated (`PATCH /v1/devices/{deviceId}`).
    case patchDevice(name: String?, policy: [String: Double?]?)
    /// Changes some of the device's conditions (R25).
    case setConditions(ConditionsChange)
    /// Powers the device off and on.
    case reboot
    /// Moves the virtual clock; `stopAtAppCode` stops after the first instant that calls a driven app's code.
    case advance(CommandTime, stopAtAppCode: Bool)
    /// Moves the device (significant location change, R36).
    case moveDevice(latitude: Double, longitude: Double)
    /// An accessory sends data over `transport` (R38).
    case accessoryData(accessoryId: String, transport: AppActivity)

    // MARK: Apps

    /// Installs an app (validated at the engine's `now`) with its scripted behaviour; `maximumApps` refuses a new
    /// app on a device that holds that many (`tooManyApps`).
    case install(AppInstallation, behavior: AppBehavior?, maximumApps: Int?)
    /// Deletes the app and all it had.
    case uninstall(bundleId: String)
    /// Replaces the app's declared background modes (`UIBackgroundModes`).
    case setBackgroundModes(bundleId: String, [BackgroundMode])
    /// Changes the app's settings; nil leaves a setting as it is.
    case updateSettings(bundleId: String, backgroundAppRefresh: Bool?)

    // MARK: Lifecycle (R1–R7, R16)

    /// The user launches the app; `launchHandlers` are the identifiers its launch registered, when known.
    case launch(bundleId: String, launchHandlers: [String]?)
    /// The user leaves the app (home gesture).
    case background(bundleId: String)
    /// The user returns to the app.
    case foreground(bundleId: String)
    /// The user swipes the app away in the app switcher.
    case forceQuit(bundleId: String)
    /// The system reclaims the app's memory.
    case terminate(bundleId: String)

    // MARK: Background time (R8–R14)

    /// `beginBackgroundTask(withName:)`; ``CommandOutcome/backgroundTaskInvalid`` when it answers
    /// `UIBackgroundTaskInvalid` (R14).
    case beginBackgroundTask(bundleId: String, name: String?)
    /// `endBackgroundTask(_:)` of the task the selector names.
    case endBackgroundTask(bundleId: String, BackgroundTaskSelector)

    // MARK: BGTaskScheduler (R15–R24)

    /// `BGTaskScheduler.submit`, submitted at the engine's `now`.
    case submitTaskRequest(bundleId: String, TaskRequestDraft)
    /// `BGTaskScheduler.cancel(taskRequestWithIdentifier:)`.
    case cancelTaskRequest(bundleId: String, identifier: String)
    /// `BGTaskScheduler.cancelAllTaskRequests()`.
    case cancelAllTaskRequests(bundleId: String)
    /// Launches the pending request now, as the debugger's `_simulateLaunchForTaskWithIdentifier` does.
    case simulateLaunch(bundleId: String, identifier: String)
    /// Expires the request's running task now (`_simulateExpirationForTaskWithIdentifier`).
    case simulateExpiration(bundleId: String, identifier: String)
    /// The app's code completes the run the selector names (`setTaskCompleted`, the fetch completion handler).
    case completeRun(bundleId: String, RunSelector, result: RunResult)
    /// `setMinimumBackgroundFetchInterval` (R28).
    case setFetchInterval(bundleId: String, FetchInterval)
    /// A continued processing task reports its progress and, when given, its new title and subtitle (R41).
    case reportRunProgress(bundleId: String, runId: String, RunProgressDraft)
    /// The user cancels a continued processing task from the system's interface (R41).
    case cancelContinuedProcessing(bundleId: String, runId: String)

    // MARK: Pushes and notifications (R29–R31, R40)

    /// APNs delivers a push; a rejection is thrown as the ``PushRejection`` APNs answers. The `apnsId` is the
    /// caller's (a generated one is made outside the engine, which draws no unseeded randomness).
    case push(PushRequest)
    /// Schedules a local notification, its time resolved at the engine's `now`.
    case scheduleNotification(bundleId: String, NotificationDraft)
    /// Removes a pending local notification.
    case cancelNotification(bundleId: String, identifier: String)

    // MARK: Background URLSession (R32–R34)

    /// Makes a background session (or makes it again: ``CommandOutcome/sessionCreated`` is false).
    case makeURLSession(bundleId: String, identifier: String, discretionary: Bool, sendsLaunchEvents: Bool)
    /// Resumes a download or upload task in a session.
    case enqueueTransfer(bundleId: String, session: String, TransferDraft)
    /// Cancels a transfer.
    case cancelTransfer(bundleId: String, transferId: String)
    /// The app calls the completion handler of `handleEventsForBackgroundURLSession`.
    case finishURLSessionEvents(bundleId: String, session: String)

    // MARK: Continuous modes (R35–R39)

    /// Starts or stops a continuous activity; `keepAliveInterval` is the VoIP keep-alive handler's (R37).
    case setActivity(bundleId: String, AppActivity, active: Bool, keepAliveInterval: VirtualDuration?)
    /// A Newsstand issue arrives (R39).
    case newsstandIssue(bundleId: String, name: String)
}

/// An instant in a command, resolved when the command is applied.
public enum CommandTime: Sendable, Equatable {
    /// This instant.
    case at(VirtualInstant)
    /// This long after the engine's `now`.
    case after(VirtualDuration)
    /// An RFC 3339 date-time as a client wrote it; one that does not parse is an `invalid` error naming the field.
    case rfc3339(String)
}

/// Which run `completeRun` ends.
public enum RunSelector: Sendable, Equatable {
    /// The run with this id.
    case id(String)
    /// The latest open run with this id and this identifier (nil: any); none is a `noOpenRun` conflict.
    case latestOpen(runId: String?, identifier: String?)
}

/// Which background task `endBackgroundTask` ends.
public enum BackgroundTaskSelector: Sendable, Equatable {
    /// The task with this id.
    case id(String)
    /// The latest open task with this id and this name (nil: any); none is a `noOpenTask` conflict.
    case latestOpen(taskId: String?, name: String?)
}

/// A progress report of a continued processing task (R41): `task.progress`'s counts, and the title and subtitle of
/// `updateTitle(_:subtitle:)` when the app changed them.
public struct RunProgressDraft: Sendable, Equatable {
    public var completedUnitCount: Int64
    public var totalUnitCount: Int64
    public var title: String?
    public var subtitle: String?

    public init(completedUnitCount: Int64, totalUnitCount: Int64, title: String? = nil, subtitle: String? = nil) {
        self.completedUnitCount = completedUnitCount
        self.totalUnitCount = totalUnitCount
        self.title = title
        self.subtitle = subtitle
    }
}
