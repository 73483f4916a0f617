import Foundation
import Testing
@testable import API

/// R41 through the routes: a continued processing request submitted, its run's progress and the user's cancel.
@Suite struct ContinuedProcessingRoutesTests {
    let api: APIHarness
    let key: String
    let device: String
    let bundle = "com.example.photos"

    init() throws {
        let api = try APIHarness()
        let key = try api.makeTenant("acme").key
        (self.api, self.key) = (api, key)
        device = try api.makeDevice(key: key, json: #"{"name":"iPhone 17","osVersion":"26.0"}"#)
        let install = #"{"bundleId":"com.example.photos","infoPlist":{"BGTaskSchedulerPermittedIdentifiers":["com.example.photos.export.*"]}}"#
        #expect(api.send(.post, "/v1/devices/\(device)/apps", key: key, json: install).status == 201)
    }

    var app: String { "/v1/devices/\(device)/apps/\(bundle)" }

    func post(_ path: String, _ json: String = "{}") -> TestResponse { api.send(.post, path, key: key, json: json) }

    func submit(_ id: String, strategy: String = "queue") -> TestResponse {
        post("\(app)/task-requests", #"{"kind":"continuedProcessing","identifier":"\#(id)","title":"Exporting","subtitle":"12 photos","strategy":"\#(strategy)"}"#)
    }

    @Test func R41_aForegroundSubmitAnswersTheRequestAndTheRunItStarted() throws {
        #expect(post("\(app)/launch").status == 200)
        let submitted = submit("com.example.photos.export.1")
        #expect(submitted.status == 201)
        #expect(submitted.json["title"] as? String == "Exporting")
        #expect(submitted.json["strategy"] as? String == "queue")
        #expect(submitted.json["requiresGPU"] as? Bool == false)
        let location = try #require(submitted.headers["Location"])
        #expect(location.hasPrefix("\(app)/runs/run_"))
        let run = api.send(.get, location, key: key)
        #expect(run.json["kind"] as? String == "continuedProcessing")
        #expect(run.json["state"] as? String == "running")
        #expect((run.json["progress"] as? [String: Any])?["subtitle"] as? String == "12 photos")
        #expect(api.send(.get, "\(app)/task-requests", key: key).items.isEmpty)
    }

    @Test func R41_progressMovesTheDeadlineAndUpdatesTheTitle() throws {
        _ = post("\(app)/launch")
        let run = try #require(submit("com.example.photos.export.1").headers["Location"])
        #expect(post("/v1/devices/\(device)/clock/advance", #"{"seconds":30}"#).status == 200)
        let reported = post("\(run)/progress", #"{"completedUnitCount":3,"totalUnitCount":12,"subtitle":"3 of 12"}"#)
        #expect(reported.status == 200)
        #expect(reported.json["deadline"] as? String == "2026-01-01T00:01:30.000Z")
        let progress = try #require(reported.json["progress"] as? [String: Any])
        #expect(progress["completedUnitCount"] as? Int == 3 && progress["totalUnitCount"] as? Int == 12)
        #expect(progress["title"] as? String == "Exporting" && progress["subtitle"] as? String == "3 of 12")
        #expect(post("\(run)/progress", #"{"completedUnitCount":-1,"totalUnitCount":12}"#).status == 422)
        #expect(post("\(run)/progress", #"{"completedUnitCount":1,"totalUnitCount":12,"extra":1}"#).status == 422)
    }

    @Test func R41_fromTheBackgroundTheSubmitIsImmediateRunIneligible() {
        _ = post("\(app)/launch")
        _ = post("\(app)/background")
        let refused = submit("com.example.photos.export.1", strategy: "fail")
        #expect(refused.status == 409 && refused.problemCode == "immediateRunIneligible")
    }

    @Test func R41_theBodyIsCheckedByKind() {
        _ = post("\(app)/launch")
        let noTitle = post("\(app)/task-requests", #"{"kind":"continuedProcessing","identifier":"com.example.photos.export.1","subtitle":"s"}"#)
        #expect(noTitle.status == 422 && noTitle.errorFields == ["title"])
        let badStrategy = submit("com.example.photos.export.1", strategy: "later")
        #expect(badStrategy.status == 422 && badStrategy.errorFields == ["strategy"])
        let titledRefresh = post("\(app)/task-requests", #"{"kind":"appRefresh","identifier":"com.example.photos.refresh","title":"t"}"#)
        #expect(titledRefresh.status == 422 && titledRefresh.errorFields == ["title"])
    }

    @Test func R41_theUserCancelsAndTheRunIsExpiring() throws {
        _ = post("\(app)/launch")
        let run = try #require(submit("com.example.photos.export.1").headers["Location"])
        let cancelled = post("\(run)/cancel")
        #expect(cancelled.status == 200 && cancelled.json["state"] as? String == "expiring")
        #expect(post("\(run)/cancel").problemCode == "runNotRunning")
        let events = api.send(.get, "/v1/devices/\(device)/events?type=run.expiring", key: key).items
        #expect((events.last?["data"] as? [String: Any])?["reason"] as? String == "userCancelled")
    }

    @Test func R41_aScenarioSubmitsAContinuedProcessingRequestThatAScriptedAppCompletes() {
        let scenario = #"""
        {"name": "export", "device": {"osVersion": "26.0", "seed": 3},
         "apps": [{"bundleId": "com.example.photos", "infoPlist": {"BGTaskSchedulerPermittedIdentifiers": ["com.example.photos.export.*"]},
                   "behavior": {"continuedProcessing": {"completeAfter": 40}}}],
         "steps": [{"at": 0, "action": "launch", "bundleId": "com.example.photos"},
                   {"at": 1, "action": "submit", "bundleId": "com.example.photos", "kind": "continuedProcessing",
                    "identifier": "com.example.photos.export.1", "title": "Exporting", "subtitle": "3 photos", "strategy": "fail"},
                   {"at": 2, "action": "background", "bundleId": "com.example.photos"}],
         "expect": [
           {"event": {"type": "run.started", "bundleId": "com.example.photos", "data": {"kind": "continuedProcessing", "title": "Exporting"}}, "within": [1, 1]},
           {"event": {"type": "run.completed", "bundleId": "com.example.photos", "data": {"result": "success"}}, "within": [41, 41]},
           {"event": {"type": "run.expiring", "bundleId": "com.example.photos"}, "absent": true}
         ]}
        """#
        let response = api.send(.post, "/v1/scenarios/run", key: key, json: scenario)
        #expect(response.status == 200 && response.json["passed"] as? Bool == true, "\(response.text)")
    }
}
