import Foundation
import Testing
@testable import API

/// `…/url-sessions` and `…/transfers` in-process (R32–R34).
@Suite struct URLSessionRoutesTests {
    let api: APIHarness
    let key: String
    let device: String
    let bundle = "com.example.news"

    init() throws {
        (api, key, device) = try APIHarness.withDevice()
        let install = #"{"bundleId":"com.example.news","infoPlist":{"UIBackgroundModes":["fetch"]}}"#
        #expect(api.send(.post, "/v1/devices/\(device)/apps", key: key, json: install).status == 201)
    }

    var app: String { "/v1/devices/\(device)/apps/\(bundle)" }
    var session: String { "\(app)/url-sessions/bg" }

    func post(_ path: String, _ json: String = "{}") -> TestResponse { api.send(.post, path, key: key, json: json) }
    func get(_ path: String) -> TestResponse { api.send(.get, path, key: key) }
    func advance(_ seconds: Double) { _ = post("/v1/devices/\(device)/clock/advance", #"{"seconds":\#(seconds)}"#) }

    @Test func sessionIsMadeThenReconnected() {
        let made = post("\(app)/url-sessions", #"{"identifier":"bg","discretionary":false,"sessionSendsLaunchEvents":true}"#)
        #expect(made.status == 201)
        #expect(made.json["identifier"] as? String == "bg" && made.json["sessionSendsLaunchEvents"] as? Bool == true)
        let again = post("\(app)/url-sessions", #"{"identifier":"bg","discretionary":true}"#)
        #expect(again.status == 200 && again.json["discretionary"] as? Bool == true)
        #expect(get("\(app)/url-sessions").items.count == 1)
        #expect(get(session).json["identifier"] as? String == "bg")
        #expect(get("\(app)/url-sessions/nope").status == 404)
        #expect(post("\(app)/url-sessions", #"{"identifier":"bg","extra":1}"#).status == 422)
        #expect(post("\(app)/url-sessions", #"{"identifier":""}"#).status == 422)
    }

    @Test func transferMovesOnTheVirtualClockAndCompletes() throws {
        _ = post("\(app)/launch")
        _ = post("\(app)/url-sessions", #"{"identifier":"bg"}"#)
        let created = post("\(session)/transfers", #"{"kind":"download","bytes":10000000}"#)
        #expect(created.status == 201)
        let id = try #require(created.json["id"] as? String)
        #expect(id == "xfer_1" && created.json["state"] as? String == "running")
        #expect(created.json["error"] is NSNull && created.json["earliestBeginDate"] is NSNull)
        advance(1)
        let halfway = get("\(app)/transfers/\(id)")
        #expect(halfway.json["bytesTransferred"] as? Int == 5_000_000)
        advance(1)
        let done = get("\(app)/transfers/\(id)")
        #expect(done.json["state"] as? String == "completed" && done.json["bytesTransferred"] as? Int == 10_000_000)
        #expect(get("\(app)/transfers").items.count == 1)
        #expect(get("\(session)/transfers").items.count == 1)
        #expect(api.send(.delete, "\(app)/transfers/\(id)", key: key).problemCode == "transferEnded")
    }

    @Test func finishEventsEndsTheURLSessionEventsRun() throws {
        _ = post("\(app)/launch")
        _ = post("\(app)/url-sessions", #"{"identifier":"bg","sessionSendsLaunchEvents":true}"#)
        _ = post("\(session)/transfers", #"{"kind":"upload","bytes":50000000}"#)
        #expect(post("\(session)/finish-events").problemCode == "noPendingEvents")
        _ = post("\(app)/background")
        advance(20)
        let run = try #require(get("\(app)/runs").items.last)
        #expect(run["kind"] as? String == "urlSessionEvents" && run["state"] as? String == "running")
        let finished = post("\(session)/finish-events")
        #expect(finished.status == 200 && finished.json["state"] as? String == "completed")
        #expect(get(app).json["state"] as? String == "suspended")
    }

    @Test func cancelAndValidation() throws {
        _ = post("\(app)/launch")
        #expect(post("\(app)/url-sessions/nope/transfers", #"{"kind":"download","bytes":1}"#).status == 404)
        _ = post("\(app)/url-sessions", #"{"identifier":"bg"}"#)
        #expect(post("\(session)/transfers", #"{"kind":"stream","bytes":1}"#).status == 422)
        #expect(post("\(session)/transfers", #"{"kind":"download","bytes":0}"#).status == 422)
        #expect(post("\(session)/transfers", #"{"kind":"download","bytes":1,"earliestBeginDate":"soon"}"#).status == 422)
        let later = post("\(session)/transfers", #"{"kind":"download","bytes":1000,"earliestBeginDate":"2026-01-01T01:00:00Z"}"#)
        #expect(later.json["state"] as? String == "waiting")
        let id = try #require(later.json["id"] as? String)
        let cancelled = api.send(.delete, "\(app)/transfers/\(id)", key: key)
        #expect(cancelled.status == 200 && cancelled.json["state"] as? String == "cancelled")
        let error = try #require(cancelled.json["error"] as? [String: Any])
        #expect(error["code"] as? Int == -999 && error["name"] as? String == "NSURLErrorCancelled")
        #expect(api.send(.delete, "\(app)/transfers/xfer_99", key: key).status == 404)
    }
}
