import Foundation
import HTTPServer
import Testing
@testable import API
@testable import Emulation
@testable import Service

/// `POST /v1/scenarios/run` in-process: the runner, its report, and strict validation of the file.
@Suite struct ScenarioRoutesTests {
    let api: APIHarness
    let key: String

    init() throws {
        api = try APIHarness()
        key = try api.makeTenant("acme").key
    }

    func run(_ json: String) -> TestResponse { api.send(.post, "/v1/scenarios/run", key: key, json: json) }

    static let counter = #"""
    {"name": "counter", "device": {"osVersion": "6.0", "seed": 5},
     "apps": [{"bundleId": "com.example.counter",
               "behavior": {"onEnterBackground": {"name": "Counter", "endAfter": "never"}}}],
     "steps": [{"at": 0, "action": "launch", "bundleId": "com.example.counter"},
               {"at": 5, "action": "background", "bundleId": "com.example.counter"}],
     "expect": [
       {"event": {"type": "backgroundTask.began", "bundleId": "com.example.counter"}, "within": [5, 5], "count": 1},
       {"event": {"type": "backgroundTask.ended", "bundleId": "com.example.counter"}, "within": [590, 610]},
       {"state": {"bundleId": "com.example.counter", "is": "background", "at": 300}},
       {"state": {"bundleId": "com.example.counter", "is": "suspended", "at": 700}},
       %EXTRA%
     ]}
    """#

    func expectations(_ response: TestResponse) -> [[String: Any]] { response.json["expectations"] as? [[String: Any]] ?? [] }

    @Test func aPassingScenarioReportsEachExpectationWithItsEvents() throws {
        let response = run(Self.counter.replacingOccurrences(of: ",\n       %EXTRA%", with: "")
            .replacingOccurrences(of: "%EXTRA%", with: ""))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json["passed"] as? Bool == true, "\(response.text)")
        let deviceId = try #require(response.json["deviceId"] as? String)
        #expect(response.headers["Location"] == "/v1/devices/\(deviceId)")
        // The device says which scenario made it, so the dashboard can group a scenario's runs.
        #expect(api.send(.get, "/v1/devices/\(deviceId)", key: key).json["scenario"] as? String == "counter")
        let own = try api.makeDevice(key: key)
        #expect(api.send(.get, "/v1/devices/\(own)", key: key).json["scenario"] is NSNull)
        let list = expectations(response)
        #expect(list.count == 4)
        #expect(list.allSatisfy { $0["passed"] as? Bool == true })
        let began = try #require((list[0]["events"] as? [[String: Any]])?.first)
        #expect(began["type"] as? String == "backgroundTask.began")
        #expect(began["t"] as? Double == 5)
        // The run is committed: the device and its events are there like any client's.
        let events = api.send(.get, "/v1/events?deviceId=\(deviceId)&limit=500", key: key)
        #expect(events.items.contains { $0["type"] as? String == "backgroundTask.ended" })
        let app = api.send(.get, "/v1/devices/\(deviceId)/apps/com.example.counter", key: key)
        #expect(app.json["state"] as? String == "suspended")
    }

    @Test func aFailingExpectationIsReportedWithTheEventsThatDecidedIt() {
        let extra = #"""
        {"event": {"type": "backgroundTask.ended", "bundleId": "com.example.counter"}, "within": [0, 100]},
        {"event": {"type": "backgroundTask.expiring"}, "absent": true},
        {"state": {"bundleId": "com.example.counter", "is": "active", "at": 20}}
        """#
        let response = run(Self.counter.replacingOccurrences(of: "%EXTRA%", with: extra))
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json["passed"] as? Bool == false)
        let list = expectations(response)
        #expect(list.count == 7)
        #expect(list[0...3].allSatisfy { $0["passed"] as? Bool == true })
        // Nothing ended in [0, 100]: the near misses (the ended event at ~600 s) are shown.
        #expect(list[4]["passed"] as? Bool == false)
        #expect((list[4]["message"] as? String)?.hasPrefix("0 matching events, expected at least 1") == true)
        let shown = list[4]["events"] as? [[String: Any]] ?? []
        #expect(shown.count == 1 && (shown.first?["t"] as? Double ?? 0) > 500)
        // It expired: the expiring event is the one that fails "absent".
        #expect(list[5]["passed"] as? Bool == false)
        #expect((list[5]["events"] as? [[String: Any]])?.first?["type"] as? String == "backgroundTask.expiring")
        #expect(list[6]["passed"] as? Bool == false)
        #expect((list[6]["message"] as? String)?.contains("is background at 20 s, expected active") == true)
    }

    @Test func aRefusedStepFailsTheRunUnlessItMayFail() {
        let scenario = #"""
        {"name": "refused", "apps": [{"bundleId": "com.example.a"}],
         "steps": [{"at": 1, "action": "submit", "bundleId": "com.example.a", "kind": "appRefresh", "identifier": "x"%MAY%}],
         "expect": [{"event": {"type": "taskRequest.submitted"}, "absent": true}]}
        """#
        let failing = run(scenario.replacingOccurrences(of: "%MAY%", with: ""))
        #expect(failing.status == 200, "\(failing.text)")
        #expect(failing.json["passed"] as? Bool == false)
        let step = (failing.json["steps"] as? [[String: Any]])?.first
        #expect(step?["ok"] as? Bool == false)
        #expect((step?["error"] as? String)?.isEmpty == false)
        let allowed = run(scenario.replacingOccurrences(of: "%MAY%", with: #", "mayFail": true"#))
        #expect(allowed.json["passed"] as? Bool == true, "\(allowed.text)")
    }

    @Test func anInvalidScenarioNamesEveryField() {
        let response = run(#"""
        {"name": "bad", "apps": [{"bundleId": "com.example.a", "infoPlist": {"UIBackgroundModes": ["teleport"]}}],
         "steps": [{"action": "launch", "bundleId": "com.example.a"}, {"action": "fly"},
                   {"at": 10, "action": "submit", "bundleId": "com.example.a", "kind": "nope", "identifier": "x"},
                   {"at": 5, "action": "reboot"}, {"action": "launch", "bundleId": "com.example.b"}],
         "expect": [{"event": {"type": "run.started"}, "within": [10, 1]}, {"state": {"bundleId": "com.example.a", "is": "asleep", "at": 1}}, {}],
         "extra": 1}
        """#)
        #expect(response.status == 422, "\(response.text)")
        let fields = Set(response.errorFields)
        for field in ["extra", "steps[1].action", "steps[2].kind", "steps[3].at", "steps[4].bundleId", "expect[0].within",
                      "expect[1].state.is", "expect[2]"] {
            #expect(fields.contains(field), "\(field) not in \(fields)")
        }
        #expect(fields.contains { $0.hasPrefix("apps[0].") }, "\(fields)")
        #expect(run("{").status == 400)
        #expect(run(#"{"name": "x", "apps": [{"bundleId": "a.b"}], "expect": [], "device": {"clock": {"mode": "realtime"}}}"#)
            .errorFields.contains("device.clock.mode"))
        #expect(api.send(.post, "/v1/scenarios/run", json: #"{"name":"x"}"#).status == 401)
        let device = run(#"{"name": "x", "apps": [{"bundleId": "a.b"}], "expect": [{"event": {"type": "x"}}], "device": {"osVersion": "99.0", "policy": {"nope": 1}}}"#)
        #expect(device.status == 422 && device.errorFields.count == 2, "\(device.text)")
        #expect(device.errorFields.allSatisfy { $0.hasPrefix("device.") }, "\(device.errorFields)")
        // Several bad policy constants in a step are named in key order, the same on every run.
        let policy = run(#"{"name": "x", "apps": [{"bundleId": "a.b"}], "expect": [{"event": {"type": "x"}}], "steps": [{"action": "policy", "policy": {"zeta": "a", "alpha": true, "mid": null, "beta": "b"}}]}"#)
        #expect(policy.errorFields == ["steps[0].policy.alpha", "steps[0].policy.beta", "steps[0].policy.mid", "steps[0].policy.zeta"],
                "\(policy.text)")
        // At most 30 days of virtual time.
        #expect(run(#"{"name": "x", "apps": [{"bundleId": "a.b"}], "expect": [{"event": {"type": "x"}}], "duration": 2592001}"#)
            .errorFields == ["duration"])
    }

    /// A device clock stops at 9000-01-01T00:00:00Z: a scenario that would run it further is refused before it starts.
    @Test func aScenarioMayNotRunTheClockPastTheLatestInstant() {
        let late = run(#"""
            {"name": "x", "device": {"clock": {"start": "8999-12-31T00:00:00Z"}}, "apps": [{"bundleId": "a.b"}],
             "expect": [{"event": {"type": "x"}}], "duration": 172800}
            """#)
        #expect(late.status == 422 && late.errorFields == ["device.clock.start"], "\(late.text)")
        let inTime = run(#"""
            {"name": "x", "device": {"clock": {"start": "8999-12-31T00:00:00Z"}}, "apps": [{"bundleId": "a.b"}],
             "expect": [{"event": {"type": "device.created"}}], "duration": 86400}
            """#)
        #expect(inTime.status == 200, "\(inTime.text)")
    }

    @Test func everyExampleScenarioPasses() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 7)
        for file in files {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
            let response = api.send(.post, "/v1/scenarios/run", key: key, json: String(decoding: bytes, as: UTF8.self))
            #expect(response.json["passed"] as? Bool == true, "\(file): \(response.text)")
        }
    }

    @Test func dataMatchesAsASubsetWithNumbersByValue() {
        let event = EmulationEvent(
            type: .runCompleted, bundleId: "a.b", at: .defaultStart,
            data: ["duration": .double(3), "result": "success", "run": ["kind": "appRefresh", "n": .int(2)], "ids": ["x", "y"]])
        func matches(_ data: [String: EventValue], type: String = "run.completed", bundleId: String? = nil) -> Bool {
            ScenarioEventMatcher(type: type, bundleId: bundleId, data: data).matches(event)
        }
        #expect(matches([:]))
        #expect(matches(["duration": .int(3), "result": "success"]))
        #expect(matches(["run": ["n": .double(2)]]))
        #expect(matches(["ids": ["x", "y"]]))
        #expect(!matches(["ids": ["x"]]))
        #expect(!matches(["result": "failure"]))
        #expect(!matches(["missing": .null]))
        #expect(!matches([:], type: "run.started"))
        #expect(matches([:], bundleId: "a.b"))
        #expect(!matches([:], bundleId: "a.c"))
    }
}
