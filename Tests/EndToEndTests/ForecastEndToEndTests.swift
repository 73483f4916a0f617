import BGEmuHTTP
import CompactJSON
import Emulation
import Foundation
import Testing

/// Forecasts through the real executable over real sockets: progress on the event stream, a result and CSV that
/// are the in-process forecast's byte for byte, one running forecast per tenant, cancellation, tenancy, a restart,
/// and the refusals.
@Suite(.serialized) struct ForecastEndToEndTests {
    static let key = "forecast-e2e-key-0123456789"

    /// A forecast request's JSON: the weather app (app refresh at each open, fetch at the minimum interval).
    static func body(devices: Int, days: Int, seed: Int = 11, extra: String = "") -> String {
        """
        {"seed": \(seed), "devices": \(devices), "days": \(days)\(extra),
         "app": {"bundleId": "com.example.weather",
                 "infoPlist": {"UIBackgroundModes": ["fetch"], "BGTaskSchedulerPermittedIdentifiers": ["com.example.weather.refresh"]},
                 "atLaunch": {"submit": [{"kind": "appRefresh", "identifier": "com.example.weather.refresh", "earliestBeginSeconds": 900}],
                              "fetchInterval": "minimum"}},
         "population": {"forceQuitShare": 0.2}}
        """
    }

    /// Polls the forecast until it is no longer running (or `timeout` seconds pass).
    static func waitUntilFinished(_ client: TestClient, _ location: String, timeout: TimeInterval = 60) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let forecast = try client.request("GET", location).json
            if forecast["state"] as? String != "running" || Date() >= deadline { return forecast }
            usleep(50_000)
        }
    }

    /// The bytes of the member `name` of a compact JSON object (keys sorted, as the service writes them).
    static func member(_ name: String, of body: [UInt8]) -> [UInt8]? {
        let text = String(decoding: body, as: UTF8.self)
        guard let start = text.range(of: "\"\(name)\":")?.upperBound else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        for index in text[start...].indices {
            let character = text[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{", "[": depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0 { return Array(text[start...index].utf8) }
            default: break
            }
        }
        return nil
    }

    @Test func aForecastRunsToDone_itsProgressOnTheStream_itsResultAndCSVThoseOfTheSameForecastInProcess() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let stream = try EventStreamConnection(port: service.port, key: Self.key)
        defer { stream.close() }

        let json = Self.body(devices: 40, days: 2)
        let created = try client.request("POST", "/v1/forecasts", json: json)
        #expect(created.status == 202)
        let id = try #require(created.json["forecastId"] as? String)
        #expect(id.hasPrefix("fc_"))
        #expect(created.header("Location") == "/v1/forecasts/\(id)")
        #expect(created.json["state"] as? String == "running")
        #expect(created.json["result"] == nil && created.json["finishedAt"] == nil)
        let echoed = try #require(created.json["request"] as? [String: Any])
        #expect((echoed["population"] as? [String: Any])?["lowPowerModeShare"] as? Double == 0.05, "defaults filled in")

        // Progress, then the end, on the tenant's stream: transient events, without ids.
        let (events, withId) = stream.transientEvents(named: "forecast.progress") { events in
            events.contains { $0["state"] as? String == "done" }
        }
        #expect(withId == 0, "a forecast.progress event carries no id")
        #expect(events.allSatisfy { $0["forecastId"] as? String == id })
        let shares = events.compactMap { $0["progress"] as? Double }
        #expect(shares.count == events.count && shares == shares.sorted(), "progress never goes back")
        #expect(events.count >= 10, "about every 1 %: \(events.count) events")
        #expect(events.last?["state"] as? String == "done" && events.last?["progress"] as? Double == 1)
        #expect(events.dropLast().allSatisfy { $0["state"] as? String == "running" })

        // Done when the end event was sent: its result is the in-process forecast's, byte for byte.
        let done = try client.request("GET", "/v1/forecasts/\(id)")
        #expect(done.json["state"] as? String == "done")
        #expect(done.json["progress"] as? Double == 1)
        #expect((done.json["devicesPerSecond"] as? Double ?? 0) > 0)
        #expect(done.json["finishedAt"] is String)
        let request = try JSONDecoder().decode(ForecastRequest.self, from: Data(json.utf8))
        let report = try Forecast.run(request, threads: 2)
        let expected = try CompactJSONEncoder(escapesSlashes: false).encode(report.result)
        let served = try #require(Self.member("result", of: done.body))
        #expect(served == expected)

        let csv = try client.request("GET", "/v1/forecasts/\(id)/devices")
        #expect(csv.status == 200)
        #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
        #expect(csv.header("Content-Disposition") == "attachment; filename=\"forecast-\(id).csv\"")
        #expect(csv.text == report.csv())

        let list = try client.request("GET", "/v1/forecasts")
        let listed = try #require(list.json["forecasts"] as? [[String: Any]])
        #expect(listed.map { $0["forecastId"] as? String } == [id])
        #expect(listed.first?["result"] == nil, "lists leave the result out")

        // Not replayed: a stream resuming from before the forecast gets no progress event.
        let resumed = try EventStreamConnection(port: service.port, key: Self.key, lastEventId: 0)
        defer { resumed.close() }
        #expect(resumed.transientEvents(named: "forecast.progress", timeout: 1) { _ in false }.events.isEmpty)
    }

    @Test func aSecondForecastWhileOneRunsIs409_andDeletingTheRunningOneCancelsItAtOnce() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let big = try client.request("POST", "/v1/forecasts", json: Self.body(devices: 50_000, days: 20))
        #expect(big.status == 202)
        let id = try #require(big.json["forecastId"] as? String)

        let second = try client.request("POST", "/v1/forecasts", json: Self.body(devices: 5, days: 1))
        #expect(second.status == 409)
        #expect(second.json["code"] as? String == "forecastRunning")
        #expect((second.json["detail"] as? String)?.contains(id) == true)
        #expect(try client.request("GET", "/v1/forecasts/\(id)/devices").json["code"] as? String == "forecastNotDone")

        let started = Date()
        #expect(try client.request("DELETE", "/v1/forecasts/\(id)").status == 204)
        #expect(try client.request("GET", "/v1/forecasts/\(id)").status == 404)
        #expect(try client.request("DELETE", "/v1/forecasts/\(id)").status == 404)
        // The tenant may start another at once, and it runs to the end without the big one's workers beside it.
        let next = try client.request("POST", "/v1/forecasts", json: Self.body(devices: 20, days: 1))
        #expect(next.status == 202)
        let location = try #require(next.header("Location"))
        #expect(try Self.waitUntilFinished(client, location)["state"] as? String == "done")
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test func anotherTenantsForecastIsNotFound() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let admin = service.client(key: LiveService.adminToken)
        let other = try #require(try admin.request("POST", "/v1/admin/tenants", json: #"{"name":"other"}"#).json["apiKey"] as? String)
        let client = service.client(key: Self.key)
        let created = try client.request("POST", "/v1/forecasts", json: Self.body(devices: 5, days: 1))
        let id = try #require(created.json["forecastId"] as? String)
        let stranger = service.client(key: other)
        for (method, path) in [("GET", "/v1/forecasts/\(id)"), ("GET", "/v1/forecasts/\(id)/devices"), ("DELETE", "/v1/forecasts/\(id)")] {
            let answer = try stranger.request(method, path)
            #expect(answer.status == 404, "\(method) \(path)")
            #expect(answer.header("Content-Type") == "application/problem+json")
        }
        #expect(try stranger.request("GET", "/v1/forecasts").json["forecasts"] as? [Any] != nil)
        #expect((try stranger.request("GET", "/v1/forecasts").json["forecasts"] as? [Any])?.isEmpty == true)
        #expect(try client.request("GET", "/v1/forecasts/\(id)").status == 200, "its own tenant still has it")
    }

    @Test func aForecastRunningWhenTheServiceStopsIsFailedAfterTheRestart() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        let client = service.client(key: Self.key)
        let created = try client.request("POST", "/v1/forecasts", json: Self.body(devices: 50_000, days: 20))
        let id = try #require(created.json["forecastId"] as? String)
        service.stop()

        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let after = service.client(key: Self.key)
        let forecast = try after.request("GET", "/v1/forecasts/\(id)").json
        #expect(forecast["state"] as? String == "failed")
        #expect(forecast["finishedAt"] is String)
        #expect(forecast["result"] == nil)
        let error = try #require(forecast["error"] as? [String: Any])
        #expect(error["code"] as? String == "serviceRestarted")
        #expect(error["type"] as? String == "urn:bgemu:problem:serviceRestarted")
        #expect((error["detail"] as? String)?.contains("restarted") == true)
        #expect(try after.request("GET", "/v1/forecasts/\(id)/devices").status == 409)
        #expect(try after.request("POST", "/v1/forecasts", json: Self.body(devices: 5, days: 1)).status == 202,
                "the failed one does not count as running")
    }

    @Test func badForecastsAre422_namingTheField_andTheSizeLimitNamesItself() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key, extraArguments: ["--forecast-max-device-days", "2000"])
        defer { service.stop() }
        let client = service.client(key: Self.key)
        func fields(_ json: String) throws -> [String] {
            let answer = try client.request("POST", "/v1/forecasts", json: json)
            #expect(answer.status == 422, "\(json)")
            #expect(answer.header("Content-Type") == "application/problem+json")
            return (answer.json["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
        }
        #expect(try fields(Self.body(devices: 10, days: 1, extra: #", "colour": "red""#)) == ["colour"])
        #expect(try fields(Self.body(devices: 0, days: 1)) == ["devices"])
        #expect(try fields(Self.body(devices: 10, days: 1, extra: #", "pushes": [{"everyMinutes": 0}]"#)) == ["pushes[0].everyMinutes"])
        let tooLarge = try client.request("POST", "/v1/forecasts", json: Self.body(devices: 1000, days: 3))
        #expect(tooLarge.status == 422)
        #expect((tooLarge.json["detail"] as? String)?.contains("2000") == true)
        #expect(try client.request("POST", "/v1/forecasts", json: Self.body(devices: 1000, days: 2)).status == 202, "2,000 device-days is within")
    }
}
