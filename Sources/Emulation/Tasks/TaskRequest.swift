/// The two kinds of `BGTaskRequest`.
public enum TaskRequestKind: String, Sendable, Codable, CaseIterable {
    /// `BGAppRefreshTaskRequest`: needs the `fetch` mode; ≈30 s (R20).
    case appRefresh
    /// `BGProcessingTaskRequest`: needs the `processing` mode; minutes, only while the device is idle (R20).
    case processing

    /// The background mode that permits this kind (R15).
    public var requiredMode: BackgroundMode { self == .appRefresh ? .fetch : .processing }
}

/// A pending `BGTaskScheduler.submit` (R15–R21).
public struct TaskRequest: Sendable, Codable, Equatable {
    public var kind: TaskRequestKind
    public var identifier: String
    public var earliestBeginDate: VirtualInstant?
    public var requiresNetworkConnectivity: Bool
    public var requiresExternalPower: Bool
    public var submittedAt: VirtualInstant

    public init(
        kind: TaskRequestKind, identifier: String, earliestBeginDate: VirtualInstant? = nil,
        requiresNetworkConnectivity: Bool = false, requiresExternalPower: Bool = false, submittedAt: VirtualInstant
    ) {
        self.kind = kind
        self.identifier = identifier
        self.earliestBeginDate = earliestBeginDate
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
        self.requiresExternalPower = requiresExternalPower
        self.submittedAt = submittedAt
    }
}
