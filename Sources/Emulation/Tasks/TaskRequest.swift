/// The kinds of `BGTaskRequest`.
public enum TaskRequestKind: String, Sendable, Codable, CaseIterable {
    /// `BGAppRefreshTaskRequest`: needs the `fetch` mode; ≈30 s (R20).
    case appRefresh
    /// `BGProcessingTaskRequest`: needs the `processing` mode; minutes, only while the device is idle (R20).
    case processing
    /// `BGContinuedProcessingTaskRequest` (iOS 26): submitted from the foreground, starts at once, continues in
    /// the background while it reports progress (R41).
    case continuedProcessing

    /// The background mode that permits this kind (R15); nil for continued processing, which the wildcard
    /// identifier permits (R41).
    public var requiredMode: BackgroundMode? {
        switch self {
        case .appRefresh: .fetch
        case .processing: .processing
        case .continuedProcessing: nil
        }
    }

    /// The discretionary kinds, launched at the system's opportunities (R25, R26).
    public static let discretionary: [TaskRequestKind] = [.appRefresh, .processing]
}

/// `BGContinuedProcessingTaskRequest.SubmissionStrategy` (R41).
public enum ContinuedProcessingStrategy: String, Sendable, Codable, CaseIterable {
    /// `.fail`: a request that cannot start at once is refused with `immediateRunIneligible`.
    case fail
    /// `.queue` (Apple's default): a request that cannot start at once waits for room.
    case queue
}

/// What a `BGContinuedProcessingTaskRequest` carries beyond the identifier (R41).
public struct ContinuedProcessingOptions: Sendable, Codable, Equatable {
    /// The localized title the system shows.
    public var title: String
    /// The localized subtitle the system shows.
    public var subtitle: String
    public var strategy: ContinuedProcessingStrategy
    /// `requiredResources` contains `.gpu`.
    public var requiresGPU: Bool

    public init(title: String, subtitle: String, strategy: ContinuedProcessingStrategy = .queue, requiresGPU: Bool = false) {
        self.title = title
        self.subtitle = subtitle
        self.strategy = strategy
        self.requiresGPU = requiresGPU
    }
}

/// A pending `BGTaskScheduler.submit` (R15–R21).
public struct TaskRequest: Sendable, Codable, Equatable {
    public var kind: TaskRequestKind
    public var identifier: String
    public var earliestBeginDate: VirtualInstant?
    public var requiresNetworkConnectivity: Bool
    public var requiresExternalPower: Bool
    public var submittedAt: VirtualInstant
    /// Continued processing requests only (R41).
    public var continued: ContinuedProcessingOptions?

    public init(
        kind: TaskRequestKind, identifier: String, earliestBeginDate: VirtualInstant? = nil,
        requiresNetworkConnectivity: Bool = false, requiresExternalPower: Bool = false, submittedAt: VirtualInstant,
        continued: ContinuedProcessingOptions? = nil
    ) {
        self.kind = kind
        self.identifier = identifier
        self.earliestBeginDate = earliestBeginDate
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
        self.requiresExternalPower = requiresExternalPower
        self.submittedAt = submittedAt
        self.continued = continued
    }
}
