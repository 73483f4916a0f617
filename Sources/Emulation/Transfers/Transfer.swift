/// A background `URLSession` an app made (`URLSessionConfiguration.background(withIdentifier:)`, R32–R34).
public struct BackgroundURLSession: Sendable, Codable, Equatable {
    /// The configuration's identifier, unique within the app.
    public var identifier: String
    /// `isDiscretionary`: its transfers wait for Wi-Fi and power (R34).
    public var discretionary: Bool
    /// `sessionSendsLaunchEvents`: the app is woken or launched when its transfers finish (R32).
    public var sendsLaunchEvents: Bool
    public var createdAt: VirtualInstant

    public init(identifier: String, discretionary: Bool, sendsLaunchEvents: Bool, createdAt: VirtualInstant) {
        self.identifier = identifier
        self.discretionary = discretionary
        self.sendsLaunchEvents = sendsLaunchEvents
        self.createdAt = createdAt
    }
}

/// One download or upload task of a background session. Its bytes move on the virtual clock at the bandwidth of
/// the device's network.
public struct Transfer: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case download, upload
    }

    public enum State: String, Sendable, Codable {
        /// Not started: no network, conditions not good enough (R34) or `earliestBeginDate` ahead.
        case waiting
        /// Bytes are moving.
        case running
        case completed
        case failed
        /// Cancelled by the app or by a force quit (R33).
        case cancelled
    }

    /// `xfer_<n>`, unique on the device.
    public var id: String
    /// The session's identifier.
    public var session: String
    public var kind: Kind
    public var bytes: Int64
    /// Bytes moved as of `measuredAt`.
    public var bytesTransferred: Int64
    public var state: State
    /// Waits for Wi-Fi and power: the session is discretionary or the task was enqueued from the background (R34).
    public var discretionary: Bool
    public var earliestBeginDate: VirtualInstant?
    /// `countOfBytesClientExpectsToReceive`, kept as given.
    public var countOfBytesClientExpectsToReceive: Int64?
    public var createdAt: VirtualInstant
    public var endedAt: VirtualInstant?
    /// `NSURLErrorDomain` code of a failed or cancelled transfer (−999 `NSURLErrorCancelled`).
    public var errorCode: Int?
    /// Why it failed or was cancelled: `forceQuit`, `cancelledByApp`.
    public var errorReason: String?
    /// When `bytesTransferred` was measured; the bytes since then move at `bytesPerSecond`.
    public var measuredAt: VirtualInstant
    /// The current rate in bytes per second (0 while waiting).
    public var bytesPerSecond: Int64
    /// Quarters of progress already reported (0–4).
    public var reportedQuarters: Int
    /// Whether a force-quit cancellation still has to be reported to the app at its next launch (R33).
    public var awaitsReport: Bool

    public init(
        id: String, session: String, kind: Kind, bytes: Int64, discretionary: Bool, earliestBeginDate: VirtualInstant?,
        countOfBytesClientExpectsToReceive: Int64?, createdAt: VirtualInstant
    ) {
        self.id = id
        self.session = session
        self.kind = kind
        self.bytes = bytes
        self.bytesTransferred = 0
        self.state = .waiting
        self.discretionary = discretionary
        self.earliestBeginDate = earliestBeginDate
        self.countOfBytesClientExpectsToReceive = countOfBytesClientExpectsToReceive
        self.createdAt = createdAt
        self.measuredAt = createdAt
        self.bytesPerSecond = 0
        self.reportedQuarters = 0
        self.awaitsReport = false
    }

    /// Waiting or running.
    public var isOpen: Bool { state == .waiting || state == .running }

    /// The bytes moved by `instant`, at the current rate (never more than `bytes`).
    public func bytesTransferred(at instant: VirtualInstant) -> Int64 {
        guard state == .running, instant > measuredAt else { return bytesTransferred }
        let elapsed = (instant - measuredAt).milliseconds
        let (product, overflow) = bytesPerSecond.multipliedReportingOverflow(by: elapsed)
        let moved = overflow ? bytes : product / 1000
        return min(bytes, bytesTransferred + moved)
    }

    /// The first instant at which `target` bytes have moved at the current rate (exact to the millisecond, rounded up).
    func instant(reaching target: Int64) -> VirtualInstant? {
        guard state == .running, bytesPerSecond > 0 else { return nil }
        let missing = max(0, target - bytesTransferred)
        let (product, overflow) = missing.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return nil }
        let milliseconds = (product + bytesPerSecond - 1) / bytesPerSecond
        return measuredAt + VirtualDuration(milliseconds: milliseconds)
    }

    /// The byte count of progress quarter `quarter` (1–4).
    func threshold(_ quarter: Int) -> Int64 {
        quarter >= 4 ? bytes : bytes / 4 * Int64(quarter) + (bytes % 4) * Int64(quarter) / 4
    }
}

extension Transfer {
    /// `NSURLErrorCancelled`.
    public static let cancelledErrorCode = -999
}
