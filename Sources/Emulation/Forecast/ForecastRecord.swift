import Foundation

/// A tenant's forecast as the service keeps it: what was asked, how far it got and what it answered.
public struct ForecastRecord: Sendable, Equatable {
    /// `fc_…`.
    public var id: String
    /// The tenant it belongs to.
    public var tenantId: String
    /// Running, done or failed.
    public var state: ForecastState
    /// The share of devices run, 0–1; 1 when done.
    public var progress: Double
    /// The request with every default filled in.
    public var request: ForecastRequest
    /// When done: the summary (nil in lists).
    public var result: ForecastResult?
    /// When failed: why.
    public var failure: ForecastFailure?
    /// When done: devices run per wall-clock second.
    public var devicesPerSecond: Double?
    /// When it was created (wall time).
    public var createdAt: Date
    /// When it ended (done or failed); nil while running.
    public var finishedAt: Date?

    /// A forecast record; a new one is `running` at progress 0.
    public init(
        id: String, tenantId: String, state: ForecastState = .running, progress: Double = 0, request: ForecastRequest,
        result: ForecastResult? = nil, failure: ForecastFailure? = nil, devicesPerSecond: Double? = nil,
        createdAt: Date, finishedAt: Date? = nil
    ) {
        self.id = id
        self.tenantId = tenantId
        self.state = state
        self.progress = progress
        self.request = request
        self.result = result
        self.failure = failure
        self.devicesPerSecond = devicesPerSecond
        self.createdAt = createdAt
        self.finishedAt = finishedAt
    }
}

/// Where a forecast stands.
public enum ForecastState: String, Sendable, Equatable, Codable {
    /// Its devices are being run.
    case running
    /// Every device ran: it has a result and a CSV.
    case done
    /// It ended without a result (`ForecastFailure` says why).
    case failed
}

/// Why a forecast failed: a stable word and a sentence (the API answers them as a problem object).
public struct ForecastFailure: Sendable, Equatable, Codable {
    /// A machine word (`serviceRestarted`, `internalError`).
    public var code: String
    /// What happened, for a person.
    public var detail: String

    /// A failure named by `code`, told by `detail`.
    public init(code: String, detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The failure of a forecast that was running when the service stopped.
    public static let serviceRestarted = ForecastFailure(
        code: "serviceRestarted", detail: "The service restarted while the forecast ran; create it again.")

    /// The failure of a forecast that was running when its tenant moved to another shard: the source's run is not
    /// carried over, and its result would land on the shard the tenant left.
    public static let tenantMoved = ForecastFailure(
        code: "tenantMoved", detail: "The tenant moved to another shard while the forecast ran; create it again.")

    /// Failures that are the service's circumstance, not the forecast's: creating it again succeeds.
    public var isTransient: Bool { self == .serviceRestarted || self == .tenantMoved }
}
