import CompactJSON
import Emulation
import Foundation
import Testing

/// A forecast never disagrees with what one device emulated through the ordinary API does with the same inputs
/// (issue 14 §1): devices are picked from a forecast the live service ran, and each is replayed as a client would,
/// request by request over HTTP — the device created with the person's seed and first conditions, the app
/// installed with the forecast's behaviour, the clock advanced to each call of the device's timeline, the call made
/// (launch and the app's submissions, background or force quit, a conditions patch, a push) — then its run events
/// are counted and compared with the forecast's row for it.
@Suite(.serialized) struct ForecastReplayEndToEndTests {
    static let key = "forecast-replay-key-0123456789"

    /// The weather app (an app refresh submitted at each open, the minimum fetch interval) with a background push
    /// every 3 hours, on a small fleet for 2 days.
    static let request: ForecastRequest = {
        let app = ForecastApp(
            bundleId: "com.example.weather",
            infoPlist: ForecastInfoPlist(
                UIBackgroundModes: ["fetch", "remote-notification"], BGTaskSchedulerPermittedIdentifiers: ["com.example.weather.refresh"]),
            atLaunch: ForecastLaunchActions(
                submit: [ForecastSubmission(kind: .appRefresh, identifier: "com.example.weather.refresh", earliestBeginSeconds: 900)],
                fetchInterval: .minimum))
        return ForecastRequest(seed: 31, devices: 16, days: 2, app: app, pushes: [ForecastPushSchedule(everyMinutes: 180)])
    }()

    /// Per kind: runs started, runs expired, and the first run's delay after the install (seconds).
    struct Runs: Equatable, CustomStringConvertible {
        var started: [String: Int] = [:]
        var expired: [String: Int] = [:]
        var firstDelay: [String: Double] = [:]
        var description: String { "started \(started), expired \(expired), first \(firstDelay)" }
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try CompactJSONEncoder().encode(value), as: UTF8.self)
    }

    /// Replays device `index` of `request` through the API and counts its runs from its event log.
    static func replay(_ request: ForecastRequest, device index: Int, api: TestClient) throws -> Runs {
        let person = Forecast.person(request, device: index)
        let timeline = Forecast.timeline(request, device: index)
        let app = request.app
        func call(_ method: String, _ path: String, _ json: String? = nil, headers: [(String, String)] = [], accept: Set<Int> = [200, 201, 204]) throws -> TestClient.Response {
            let response = try api.request(method, path, json: json, headers: headers)
            #expect(accept.contains(response.status), "\(method) \(path): \(response.status) \(response.text)")
            return response
        }
        let created = try call("POST", "/v1/devices", """
            {"name": "replay \(index)", "osVersion": "\(request.osVersion)", "seed": \(person.engineSeed),
             "clock": {"start": "\(RFC3339.format(timeline.start))"}, "conditions": \(try json(timeline.initialConditions))}
            """)
        let device = try #require(created.json["id"] as? String)
        let d = "/v1/devices/\(device)"
        let a = "\(d)/apps/\(app.bundleId)"
        for action in timeline.actions {
            if action.at > timeline.start {
                _ = try call("POST", "\(d)/clock/advance", #"{"to": "\#(RFC3339.format(action.at))"}"#)
            }
            switch action.command {
            case .install:
                let body = """
                    {"bundleId": "\(app.bundleId)", "infoPlist": \(try json(app.infoPlist)),
                     "behavior": \(try json(AppBehaviorCoding(app.resolvedBehavior)))}
                    """
                _ = try call("POST", "\(d)/apps", body)
                if person.appBackgroundAppRefreshOff {
                    _ = try call("PATCH", "\(a)/settings", #"{"backgroundAppRefresh": false}"#)
                }
            case .open:
                _ = try call("POST", "\(a)/launch")
                for submission in app.atLaunch.submit {
                    var body = #"{"kind": "\#(submission.kind.rawValue)", "identifier": "\#(submission.identifier)""#
                    if let seconds = submission.earliestBeginSeconds {
                        body += #", "earliestBeginDate": "\#(RFC3339.format(action.at + .seconds(seconds)))""#
                    }
                    // Refused in Low Power Mode or with a switch off (R18), as on iOS: the app carries on.
                    _ = try call("POST", "\(a)/task-requests", body + "}", accept: [200, 201, 409])
                }
                if app.atLaunch.fetchInterval == .minimum {
                    _ = try call("PUT", "\(a)/fetch-interval", #"{"interval": "minimum"}"#)
                }
            case .leave(let forceQuit):
                _ = try call("POST", "\(a)/\(forceQuit ? "force-quit" : "background")")
            case .conditions(let conditions):
                _ = try call("PATCH", "\(d)/conditions", try json(conditions))
            case .push(let n):
                let apnsId = "00000000-0000-4000-8000-" + String(format: "%012x", n)
                _ = try call(
                    "POST", "\(d)/push", #"{"aps":{"content-available":1}}"#,
                    headers: [("apns-topic", app.bundleId), ("apns-push-type", "background"), ("apns-priority", "5"), ("apns-id", apnsId)],
                    accept: [200, 201, 202, 400, 410])
            }
        }
        _ = try call("POST", "\(d)/clock/advance", #"{"to": "\#(RFC3339.format(timeline.end))"}"#)

        var runs = Runs()
        var cursor: String?
        repeat {
            let page = try call("GET", "\(d)/events?type=run.&limit=500" + (cursor.map { "&cursor=\($0)" } ?? ""))
            for event in page.json["items"] as? [[String: Any]] ?? [] {
                let data = event["data"] as? [String: Any] ?? [:]
                guard let kind = data["kind"] as? String else { continue }
                switch event["type"] as? String {
                case "run.started":
                    runs.started[kind, default: 0] += 1
                    if runs.firstDelay[kind] == nil, let at = (event["at"] as? String).flatMap(RFC3339.parse) {
                        runs.firstDelay[kind] = (at - timeline.installAt).seconds
                    }
                case "run.expired": runs.expired[kind, default: 0] += 1
                default: break
                }
            }
            cursor = page.json["nextCursor"] as? String
        } while cursor != nil
        return runs
    }

    /// The forecast's row for a device, as ``Runs``.
    static func expected(_ row: [String: String], kinds: [String]) -> Runs {
        var runs = Runs()
        for kind in kinds {
            let started = Int(row["\(kind).started"] ?? "") ?? 0
            guard started > 0 else { continue }
            runs.started[kind] = started
            if let expired = Int(row["\(kind).expired"] ?? ""), expired > 0 { runs.expired[kind] = expired }
            runs.firstDelay[kind] = Double(row["\(kind).firstRunDelaySeconds"] ?? "")
        }
        return runs
    }

    @Test func devicesPickedFromAForecastReplayedRequestByRequestRunAsTheForecastSays() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let api = service.client(key: Self.key)

        let created = try api.request("POST", "/v1/forecasts", json: try Self.json(Self.request))
        #expect(created.status == 202, "\(created.text)")
        let id = try #require(created.json["forecastId"] as? String)
        let deadline = Date().addingTimeInterval(60)
        while try api.request("GET", "/v1/forecasts/\(id)").json["state"] as? String == "running", Date() < deadline {
            usleep(50_000)
        }
        let csv = try api.request("GET", "/v1/forecasts/\(id)/devices").text
        let lines = csv.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(lines.first)
        let rows = lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        #expect(rows.count == Self.request.devices)
        let kinds = ["appRefresh", "fetch", "remoteNotification"]

        // One that ran its refresh, one that never did, one with a push delivered, and the last.
        var picked: [Int] = []
        if let ran = rows.firstIndex(where: { Int($0["appRefresh.started"] ?? "") ?? 0 > 0 }) { picked.append(ran) }
        if let never = rows.firstIndex(where: { $0["appRefresh.started"] == "0" }) { picked.append(never) }
        if let pushed = rows.firstIndex(where: { Int($0["remoteNotification.started"] ?? "") ?? 0 > 0 }) { picked.append(pushed) }
        picked.append(rows.count - 1)
        #expect(picked.count >= 3, "the fleet should hold devices that ran and devices that did not")
        for index in Set(picked).sorted() {
            let replayed = try Self.replay(Self.request, device: index, api: api)
            #expect(replayed == Self.expected(rows[index], kinds: kinds), "device \(index)")
        }
    }
}
