import Emulation
import HTTPServer

/// A forecast on the wire: `{forecastId, state, progress, createdAt, finishedAt?, request, devicesPerSecond?,
/// result?, error?}` (`result` and `devicesPerSecond` only when done, `error` only when failed).
struct ForecastBody: Encodable {
    var forecastId: String
    var state: ForecastState
    var progress: Double
    var createdAt: String
    var finishedAt: String?
    var request: ForecastRequest
    var devicesPerSecond: Double?
    var result: ForecastResult?
    var error: ForecastProblemBody?

    /// `withResult` false leaves the result out (the list).
    init(_ record: ForecastRecord, withResult: Bool = true) {
        forecastId = record.id
        state = record.state
        progress = ForecastNumbers.rounded(record.progress)
        createdAt = record.createdAt.rfc3339
        finishedAt = record.finishedAt?.rfc3339
        request = record.request
        devicesPerSecond = record.state == .done ? record.devicesPerSecond : nil
        result = withResult && record.state == .done ? record.result : nil
        error = record.state == .failed ? record.failure.map(ForecastProblemBody.init) : nil
    }
}

/// Why a forecast failed, as a problem object (RFC 9457): `{type, title, status, detail, code}`.
struct ForecastProblemBody: Encodable {
    var type: String
    var title: String
    var status: Int
    var detail: String
    var code: String

    init(_ failure: ForecastFailure) {
        let problem = HTTPProblem(
            status: failure.isTransient ? .serviceUnavailable : .internalServerError, code: failure.code,
            detail: failure.detail)
        type = problem.type
        title = problem.title
        status = problem.status.code
        detail = failure.detail
        code = failure.code
    }
}

/// `GET /v1/forecasts`: the tenant's forecasts, newest first, without results.
struct ForecastListBody: Encodable {
    var forecasts: [ForecastBody]
}

/// The `data:` of a `forecast.progress` stream event: `{forecastId, state, progress}` on one line.
struct ForecastProgressBody: Encodable {
    var forecastId: String
    var state: ForecastState
    var progress: Double
}
