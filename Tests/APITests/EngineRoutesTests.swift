import Foundation
import Testing
@testable import API

/// The engine's routes in-process: lifecycle actions, clock, background tasks, BGTaskScheduler, runs.
@Suite struct EngineRoutesTests {
    let api: APIHarness
    let key: String
    let device: String
    let bundle = "com.example.weather"

    init() throws {
        (api, key, device) = try APIHarness.withDevice()
        let install = """
            {"bundleId":"com.example.weather","infoPlist":{"UIBackgroundModes":["fetch","processing"],
             "BGTaskSchedulerPermittedIdentifiers":["com.example.weather.refresh","com.example.weather.cleanup"]}}
            """
        #expect(api.send(.post, "/v1/devices/\(device)/apps", key: key, json: install).status == 201)
    }

    var app: String { "/v1/devices/\(device)/apps/\(bundle)" }

    func post(_ path: String, _ json: String? = nil) -> TestResponse {
        api.send(.post, path, key: key, json: json ?? "{}")
    }

    func advance(_ seconds: Double) -> TestResponse {
        post("/v1/devices/\(device)/clock/advance", #"{"seconds":\#(seconds)}"#)
    }

    @Test func lifecycleActionsAnswerTheNewState() {
        #expect(post("\(app)/launch").json["state"] as? String == "active")
        #expect(post("\(app)/launch").json["backgroundTimeRemaining"] is NSNull)
        let backgrounded = post("\(app)/background")
        #expect(backgrounded.json["state"] as? String == "background")
        #expect(backgrounded.json["backgroundTimeRemaining"] as? Double == 5)
        #expect(advance(6).json["eventsEmitted"] as? Int == 2)  // suspended, clock.advanced
        #expect(api.send(.get, app, key: key).json["state"] as? String == "suspended")
        let conflict = post("\(app)/background")
        #expect(conflict.status == 409 && conflict.problemCode == "notInForeground")
        #expect(post("\(app)/force-quit").json["forceQuit"] as? Bool == true)
        #expect(post("\(app)/terminate").problemCode == "notRunning")
    }

    @Test func clockAdvanceValidatesAndReportsNow() {
        let advanced = advance(90)
        #expect(advanced.json["now"] as? String == "2026-01-01T00:01:30.000Z")
        #expect(api.send(.get, "/v1/devices/\(device)/clock", key: key).json["now"] as? String == "2026-01-01T00:01:30.000Z")
        #expect(advance(31 * 86_400).status == 422)
        // Bounds relative to the clock's reading are conflicts with the device's state.
        let back = post("/v1/devices/\(device)/clock/advance", #"{"to":"2025-01-01T00:00:00Z"}"#)
        #expect(back.status == 409 && back.problemCode == "clockCannotGoBack")
        let far = post("/v1/devices/\(device)/clock/advance", #"{"to":"2026-03-01T00:00:00Z"}"#)
        #expect(far.status == 409 && far.problemCode == "advanceTooLong")
        #expect(post("/v1/devices/\(device)/clock/advance", #"{"seconds":1,"to":"2026-02-01T00:00:00Z"}"#).status == 422)
        #expect(post("/v1/devices/\(device)/clock/advance", #"{"to":"2026-01-02T00:00:00Z"}"#).json["now"] as? String
                == "2026-01-02T00:00:00.000Z")
    }

    @Test func backgroundTaskExpiresAndTheWatchdogTerminates() throws {
        _ = post("\(app)/launch")
        let began = post("\(app)/background-tasks", #"{"name":"upload"}"#)
        #expect(began.status == 201)
        let taskId = try #require(began.json["id"] as? String)
        _ = post("\(app)/background")
        _ = advance(31)
        let shown = api.send(.get, app, key: key)
        #expect(shown.json["state"] as? String == "notRunning")
        let tasks = api.send(.get, "\(app)/background-tasks", key: key).items
        #expect(tasks.first?["id"] as? String == taskId && tasks.first?["state"] as? String == "expired")
        #expect(api.send(.delete, "\(app)/background-tasks/\(taskId)", key: key).status == 404)
    }

    @Test func submitRefusalIsAProblemWithTheCode() {
        _ = post("\(app)/launch")
        let unknown = post("\(app)/task-requests", #"{"kind":"appRefresh","identifier":"not.listed"}"#)
        #expect(unknown.status == 409 && unknown.problemCode == "notPermitted")
        let ok = post("\(app)/task-requests", #"{"kind":"appRefresh","identifier":"com.example.weather.refresh"}"#)
        #expect(ok.status == 201)
        let other = post("\(app)/task-requests", #"{"kind":"processing","identifier":"com.example.weather.cleanup","requiresExternalPower":true}"#)
        #expect(other.status == 201)
        #expect(api.send(.get, "\(app)/task-requests", key: key).items.count == 2)
        let bad = post("\(app)/task-requests", #"{"kind":"appRefresh","identifier":"x","requiresExternalPower":true}"#)
        #expect(bad.status == 422 && bad.errorFields == ["requiresExternalPower"])
        #expect(api.send(.delete, "\(app)/task-requests/com.example.weather.refresh", key: key).status == 204)
        #expect(api.send(.delete, "\(app)/task-requests", key: key).status == 204)
        #expect(api.send(.get, "\(app)/task-requests", key: key).items.isEmpty)
    }

    @Test func eligibilityExplainsEachConditionWithItsRule() throws {
        _ = post("\(app)/launch")
        _ = post("\(app)/task-requests", #"{"kind":"processing","identifier":"com.example.weather.cleanup","requiresExternalPower":true}"#)
        let eligibility = api.send(.get, "\(app)/task-requests/com.example.weather.cleanup/eligibility", key: key)
        #expect(eligibility.status == 200)
        #expect(eligibility.json["eligible"] as? Bool == false)
        let conditions = eligibility.json["conditions"] as? [[String: Any]] ?? []
        let unmet = conditions.filter { $0["met"] as? Bool == false }.compactMap { $0["name"] as? String }
        #expect(unmet == ["externalPower", "deviceIdle", "notInForeground"])
        #expect(conditions.allSatisfy { ($0["rule"] as? String)?.hasPrefix("R") == true })
        #expect(eligibility.json["nextOpportunityAt"] as? String != nil)
    }

    @Test func simulateLaunchThenCompleteTheRun() throws {
        _ = post("\(app)/launch")
        _ = post("\(app)/task-requests", #"{"kind":"appRefresh","identifier":"com.example.weather.refresh"}"#)
        _ = post("\(app)/background")
        _ = advance(10)
        let launched = post("\(app)/task-requests/com.example.weather.refresh/simulate-launch")
        #expect(launched.status == 201)
        let runId = try #require(launched.json["id"] as? String)
        #expect(launched.json["kind"] as? String == "appRefresh" && launched.json["state"] as? String == "running")
        #expect(api.send(.get, app, key: key).json["state"] as? String == "background")
        let wrong = post("\(app)/runs/\(runId)/complete", #"{"result":"newData"}"#)
        #expect(wrong.status == 422)
        let done = post("\(app)/runs/\(runId)/complete", #"{"success":true}"#)
        #expect(done.json["state"] as? String == "completed" && done.json["result"] as? String == "success")
        #expect(api.send(.get, app, key: key).json["state"] as? String == "suspended")
        #expect(api.send(.get, "\(app)/runs/\(runId)", key: key).json["result"] as? String == "success")
        #expect(post("\(app)/runs/\(runId)/complete", #"{"success":true}"#).problemCode == "runNotOpen")
    }

    @Test func scriptedAppRunsWithoutTheClient() throws {
        let install = """
            {"bundleId":"com.example.counter","infoPlist":{"UIBackgroundModes":["fetch"]},
             "behavior":{"fetch":{"completeAfter":3,"result":"newData"}}}
            """
        #expect(post("/v1/devices/\(device)/apps", install).status == 201)
        let counter = "/v1/devices/\(device)/apps/com.example.counter"
        _ = post("\(counter)/launch")
        #expect(api.send(.put, "\(counter)/fetch-interval", key: key, json: #"{"interval":"minimum"}"#).status == 200)
        _ = post("\(counter)/background")
        _ = advance(3600)
        let runs = api.send(.get, "\(counter)/runs", key: key).items
        #expect(!runs.isEmpty)
        #expect(runs.allSatisfy { $0["state"] as? String == "completed" && $0["result"] as? String == "newData" })
        let badBehavior = post("/v1/devices/\(device)/apps",
                               #"{"bundleId":"com.example.bad","behavior":{"fetch":{"completeAfter":3,"result":"success"}}}"#)
        #expect(badBehavior.status == 422)
    }

    @Test func policyOverridesOnCreateAndPatch() throws {
        let created = api.send(.post, "/v1/devices", key: key, json: #"{"name":"fast","policy":{"backgroundTaskAllowance":3}}"#)
        #expect((created.json["policy"] as? [String: Any])?["backgroundTaskAllowance"] as? Double == 3)
        let id = try #require(created.json["id"] as? String)
        let patched = api.send(.patch, "/v1/devices/\(id)", key: key, json: #"{"policy":{"backgroundTaskAllowance":null,"opportunityInterval":60}}"#)
        #expect(patched.status == 200)
        #expect((patched.json["policy"] as? [String: Any])?["backgroundTaskAllowance"] as? Double == 30)
        #expect(patched.json["policyOverrides"] as? [String: Double] == ["opportunityInterval": 60])
        let bad = api.send(.patch, "/v1/devices/\(id)", key: key, json: #"{"policy":{"warpFactor":9}}"#)
        #expect(bad.status == 422 && bad.errorFields == ["policy.warpFactor"])
    }

    @Test func rebootEndsApps() {
        _ = post("\(app)/launch")
        #expect(post("/v1/devices/\(device)/reboot").status == 200)
        #expect(api.send(.get, app, key: key).json["state"] as? String == "notRunning")
    }
}
