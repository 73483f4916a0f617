/// Why the forecast service refuses a forecast (the API answers a problem for each).
public enum ForecastServiceError: Error, Sendable, Equatable {
    /// The tenant already has a forecast running (`forecastId`): one at a time per tenant.
    case alreadyRunning(forecastId: String)
    /// `devices × days` is past the service's limit.
    case tooLarge(deviceDays: Int, limit: Int)
    /// The forecast is not done (running or failed), so it has no CSV.
    case notDone(forecastId: String, state: String)
}
