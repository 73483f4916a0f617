import Emulation

/// What the tenant's event stream is told about a forecast: its progress while it runs (about every 1 %), and
/// once at the end its final state.
public struct ForecastProgress: Sendable, Equatable {
    public var tenantId: String
    public var forecastId: String
    public var state: ForecastState
    /// 0–1.
    public var progress: Double

    public init(tenantId: String, forecastId: String, state: ForecastState, progress: Double) {
        self.tenantId = tenantId
        self.forecastId = forecastId
        self.state = state
        self.progress = progress
    }
}
