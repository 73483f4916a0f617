import Foundation
import Testing
@testable import API

/// The two routes a client running the app's own code needs: a launch that says what it registered (R16) and an
/// advance that stops where the app's code is called.
@Suite struct AppCodeRoutesTests {
    let api: APIHarness
    let key: String
    let device: String
    init() throws {
        (api, key, device) = try APIHarness.withDevice()
        let install = """
            {"bundleId":"com.example.weather","infoPlist":{"UIBackgroundModes":["fetch"],
             "BGTaskSchedulerPermittedIdentifiers":["com.example.weather.refresh","com.example.weather.sync"]}}
            """
        _ = api.send(.post, "/v1/devices/\(device)/apps", key: key, json: install)
    }

    var app: String { "/v1/devices/\(device)/apps/com.example.weather" }

    @Test func R16_aLaunchBodySetsTheHandlersTheLaunchRegistered() {
        let launched = api.send(.post, "\(app)/launch", key: key, json: #"{"launchHandlers":["com.example.weather.sync"]}"#)
        #expect(launched.status == 200)
        #expect(launched.json["launchHandlers"] as? [String] == ["com.example.weather.sync"])
        #expect(launched.json["state"] as? String == "active")
        // Without a body nothing changes, as before.
        #expect(api.send(.post, "\(app)/launch", key: key).json["launchHandlers"] as? [String] == ["com.example.weather.sync"])
    }

    @Test func R16_aLaunchBodyIsCheckedBeforeAnythingHappens() {
        let refused = api.send(.post, "\(app)/launch", key: key, json: #"{"launchHandlers":["com.example.other"]}"#)
        #expect(refused.status == 422)
        #expect(refused.errorFields == ["launchHandlers[0]"])
        #expect(api.send(.post, "\(app)/launch", key: key, json: #"{"launchHandler":[]}"#).errorFields == ["launchHandler"])
        #expect(api.send(.post, "\(app)/launch", key: key, json: "{").status == 400)
        #expect(api.send(.post, "\(app)/launch", key: key, body: Array("x".utf8), headers: ["Content-Type": "text/plain"]).status == 415)
        #expect(api.send(.get, app, key: key).json["state"] as? String == "notRunning")
    }

    @Test func anAdvanceStopsWhereTheAppsCodeIsCalled() throws {
        _ = api.send(.post, "\(app)/launch", key: key)
        _ = api.send(.post, "\(app)/task-requests", key: key, json: #"{"kind":"appRefresh","identifier":"com.example.weather.refresh"}"#)
        _ = api.send(.post, "\(app)/background", key: key)
        let stopped = api.send(.post, "/v1/devices/\(device)/clock/advance", key: key, json: #"{"seconds":3600,"stopAtAppCode":true}"#)
        #expect(stopped.status == 200)
        #expect(stopped.json["stopped"] as? Bool == true)
        let runs = api.send(.get, "\(app)/runs", key: key).items
        let run = try #require(runs.first)
        #expect(run["state"] as? String == "running" && run["startedAt"] as? String == stopped.json["now"] as? String)
        // The app answers in time; the rest of the hour passes with nothing more to stop for.
        let runId = try #require(run["id"] as? String)
        #expect(api.send(.post, "\(app)/runs/\(runId)/complete", key: key, json: #"{"success":true}"#).status == 200)
        let rest = api.send(.post, "/v1/devices/\(device)/clock/advance", key: key,
                            json: #"{"to":"2026-01-01T01:00:00Z","stopAtAppCode":true}"#)
        #expect(rest.json["stopped"] as? Bool == false)
        #expect(rest.json["now"] as? String == "2026-01-01T01:00:00.000Z")
        #expect(api.send(.get, app, key: key).json["state"] as? String == "suspended")
        let plain = api.send(.post, "/v1/devices/\(device)/clock/advance", key: key, json: #"{"seconds":60}"#)
        #expect(plain.json["stopped"] as? Bool == false)
        #expect(api.send(.post, "/v1/devices/\(device)/clock/advance", key: key, json: #"{"seconds":1,"stopAtAppCode":"yes"}"#)
            .status == 422)
    }
}
