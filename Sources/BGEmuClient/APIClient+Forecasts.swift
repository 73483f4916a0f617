extension APIClient {
    /// `POST /v1/forecasts` with the request as JSON bytes (as a file holds it): the forecast, `running`.
    public func createForecast(_ request: [UInt8]) throws(ClientFailure) -> JSONValue {
        try upload("POST", "/v1/forecasts", bytes: request, contentType: "application/json")
    }

    /// `GET /v1/forecasts/{forecastId}`: its state, progress and, once done, its result.
    public func forecast(_ id: String) throws(ClientFailure) -> JSONValue {
        try json("GET", PathEncoding.path("v1", "forecasts", id))
    }

    /// `DELETE /v1/forecasts/{forecastId}`: cancels a running forecast.
    public func cancelForecast(_ id: String) throws(ClientFailure) {
        _ = try send("DELETE", PathEncoding.path("v1", "forecasts", id))
    }

    /// `GET /v1/forecasts/{forecastId}/devices` as CSV: one row per device.
    public func forecastDevicesCSV(_ id: String) throws(ClientFailure) -> [UInt8] {
        try send("GET", PathEncoding.path("v1", "forecasts", id, "devices"), headers: [("Accept", "text/csv")]).body
    }

    /// `POST /v1/scenarios/run` with a scenario file's bytes: its report (`passed`, `steps`, `expectations`).
    public func runScenario(_ scenario: [UInt8]) throws(ClientFailure) -> JSONValue {
        try upload("POST", "/v1/scenarios/run", bytes: scenario, contentType: "application/json")
    }
}
