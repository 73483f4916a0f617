/// What a grant of background execution was for.
public enum RunKind: String, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    case appRefresh, processing, fetch, remoteNotification, urlSessionEvents, location, accessory, voip, newsstand
    /// A `BGContinuedProcessingTask` (R41).
    case continuedProcessing

    /// How the app reports the end of such a run: `success` for BGTasks, a fetch result for the others.
    public var takesFetchResult: Bool { self == .fetch || self == .remoteNotification }

    /// A wake with no completion handler in iOS: accessory data gives the app about 10 s, after which it is
    /// suspended again, not terminated (R38). Only a background task begun during it and held past its
    /// allowance leads to the watchdog (R12).
    public var endsBySuspension: Bool { self == .accessory }
}

/// How a run ended, as the app reported it.
public enum RunResult: String, Sendable, Codable, CaseIterable {
    /// `setTaskCompleted(success: true)`.
    case success
    /// `setTaskCompleted(success: false)`, or never completed (R22).
    case failure
    /// `UIBackgroundFetchResult`.
    case newData, noData, failed
}

/// One grant of background time: a BGTask launch, a fetch, a silent push, … (the API's `runs`).
public struct Run: Sendable, Codable, Equatable {
    public enum State: String, Sendable, Codable {
        /// The app has its time.
        case running
        /// The deadline passed and the expiration handler was called; the grace period runs (R22).
        case expiring
        /// The app reported the end, or a wake with no completion handler reached its deadline (R38).
        case completed
        /// Never completed: marked failed, the app terminated (R22).
        case expired
    }

    /// `run_<n>`, unique on the device.
    public var id: String
    public var kind: RunKind
    /// Why the system granted it: `opportunity`, `predictedUsage`, `simulateLaunch`, …
    public var reason: String
    /// The BGTask identifier, for BGTask runs.
    public var identifier: String?
    public var startedAt: VirtualInstant
    public var deadline: VirtualInstant
    public var state: State
    public var result: RunResult?
    public var endedAt: VirtualInstant?
    /// Whether the app was launched for it (it was not running), rather than resumed.
    public var launchedApp: Bool
    /// For processing runs: whether the request asked for external power (power removal expires the run, R20).
    public var requiresExternalPower: Bool
    /// For processing runs: whether the request asked for network connectivity; nil is false (a device stored
    /// before it was kept). With `requiresExternalPower`, what a resubmission of the request keeps (R21).
    public var requiresNetworkConnectivity: Bool?
    /// For continued processing runs: the progress last reported (R41).
    public var progress: RunProgress?

    public init(
        id: String, kind: RunKind, reason: String, identifier: String?, startedAt: VirtualInstant,
        deadline: VirtualInstant, launchedApp: Bool, requiresExternalPower: Bool = false,
        requiresNetworkConnectivity: Bool = false
    ) {
        self.id = id
        self.kind = kind
        self.reason = reason
        self.identifier = identifier
        self.startedAt = startedAt
        self.deadline = deadline
        self.state = .running
        self.launchedApp = launchedApp
        self.requiresExternalPower = requiresExternalPower
        self.requiresNetworkConnectivity = requiresNetworkConnectivity ? true : nil
    }

    public var isOpen: Bool { state == .running || state == .expiring }
}

/// A continued processing run's progress as the app last reported it (`task.progress`, `updateTitle`, R41).
public struct RunProgress: Sendable, Codable, Equatable {
    public var completedUnitCount: Int64
    public var totalUnitCount: Int64
    public var title: String
    public var subtitle: String
    /// When the completed count last grew (or the run started): the stall deadline counts from here.
    public var advancedAt: VirtualInstant

    public init(completedUnitCount: Int64, totalUnitCount: Int64, title: String, subtitle: String, advancedAt: VirtualInstant) {
        self.completedUnitCount = completedUnitCount
        self.totalUnitCount = totalUnitCount
        self.title = title
        self.subtitle = subtitle
        self.advancedAt = advancedAt
    }
}
