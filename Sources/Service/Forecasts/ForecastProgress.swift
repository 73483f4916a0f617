import Emulation

/// What the tenant's event stream is told about a forecast: its progress while it runs (about every 1 %), and
/// once at the end its final state.
public struct ForecastProgress: Sendable, Equatable {
    /// Whose streams are told.
    public var tenantId: String
    /// The forecast.
    public var forecastId: String
    /// `running` while it runs; the final state once, at the end.
    public var state: ForecastState
    /// 0–1.
    public var progress: Double

    /// The progress of `forecastId` of `tenantId`.
    public init(tenantId: String, forecastId: String, state: ForecastState, progress: Double) {
        self.tenantId = tenantId
        self.forecastId = forecastId
        self.state = state
        self.progress = progress
    }
}
