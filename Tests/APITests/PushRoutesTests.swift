import Foundation
import HTTPServer
import Testing
@testable import API

/// `POST /v1/devices/{deviceId}/push` in-process: APNs's answers and the outcome of accepted pushes (R29–R31).
@Suite struct PushRoutesTests {
    let api: APIHarness
    let key: String
    let device: String
    let bundle = "com.example.weather"
    static let silent = #"{"aps":{"content-available":1}}"#

    init() throws {
        (api, key, device) = try APIHarness.withDevice()
        let install = #"{"bundleId":"com.example.weather","infoPlist":{"UIBackgroundModes":["remote-notification"]}}"#
        #expect(api.send(.post, "/v1/devices/\(device)/apps", key: key, json: install).status == 201)
    }

    func push(_ payload: String = silent, headers extra: [String: String] = [:], defaults: Bool = true) -> TestResponse {
        var headers = HTTPHeaders()
        if defaults {
            headers["apns-topic"] = bundle
            headers["apns-push-type"] = "background"
            headers["apns-priority"] = "5"
        }
        for (name, value) in extra { headers[name] = value }
        return api.send(.post, "/v1/devices/\(device)/push", key: key, body: Array(payload.utf8), headers: headers)
    }

    func duplicated() -> TestResponse {
        var headers = HTTPHeaders()
        headers.add("apns-topic", bundle)
        headers.add("apns-topic", bundle)
        return api.send(.post, "/v1/devices/\(device)/push", key: key, body: Array(Self.silent.utf8), headers: headers)
    }

    @Test func eachApnsReasonWordWithItsStatus() {
        let big = #"{"aps":{"content-available":1},"x":""# + String(repeating: "a", count: 4100) + #""}"#
        let cases: [(TestResponse, Int, String)] = [
            (push(""), 400, "PayloadEmpty"),
            (push(big), 413, "PayloadTooLarge"),
            (push("[1,2"), 400, "BadPayload"),
            (push(Self.silent, defaults: false), 400, "MissingTopic"),
            (push(headers: ["apns-topic": "com.example.none"]), 400, "BadTopic"),
            (push(headers: ["apns-push-type": "voip"]), 400, "InvalidPushType"),
            (push(headers: ["apns-priority": "10"]), 400, "BadPriority"),
            (push(headers: ["apns-priority": "high"]), 400, "BadPriority"),
            (push(headers: ["apns-expiration": "-1"]), 400, "BadExpirationDate"),
            (push(headers: ["apns-collapse-id": String(repeating: "x", count: 65)]), 400, "BadCollapseId"),
            (push(headers: ["apns-id": "42"]), 400, "BadMessageId"),
            (duplicated(), 400, "DuplicateHeaders"),
        ]
        for (response, status, reason) in cases {
            #expect(response.status == status, "\(reason)")
            #expect(response.problemCode == reason, "\(reason)")
            #expect(response.headers["Content-Type"] == "application/problem+json", "\(reason)")
        }
        #expect(api.send(.get, "/v1/devices/\(device)/events", key: key).text.contains("push.received") == false)
    }

    @Test func aDeliveredPushAnswersItsRunAndEchoesTheApnsId() {
        let id = "123E4567-E89B-12D3-A456-4266554400A0"
        let response = push(headers: ["apns-id": id])
        #expect(response.status == 200)
        #expect(response.headers["apns-id"] == id && response.json["apnsId"] as? String == id)
        #expect(response.json["outcome"] as? String == "delivered" && response.json["reason"] is NSNull)
        let runId = response.json["runId"] as? String ?? ""
        let run = api.send(.get, "/v1/devices/\(device)/apps/\(bundle)/runs/\(runId)", key: key)
        #expect(run.json["kind"] as? String == "remoteNotification")
        let done = api.send(.post, "/v1/devices/\(device)/apps/\(bundle)/runs/\(runId)/complete", key: key,
                            json: #"{"result":"newData"}"#)
        #expect(done.json["result"] as? String == "newData")
        #expect(response.json["inForeground"] as? Bool == false)
    }

    @Test func R30_aPushToTheForegroundAppIsDeliveredAtOnceWithNoRunInLowPowerModeToo() {
        let app = "/v1/devices/\(device)/apps/\(bundle)"
        #expect(api.send(.post, "\(app)/launch", key: key).status == 200)
        _ = api.send(.patch, "/v1/devices/\(device)/conditions", key: key, json: #"{"lowPowerMode":true}"#)
        for _ in 1...5 {
            let response = push()
            #expect(response.json["outcome"] as? String == "delivered" && response.json["inForeground"] as? Bool == true)
            #expect(response.json["runId"] is NSNull && response.json["reason"] is NSNull)
        }
        #expect(api.send(.get, "\(app)/runs", key: key).items.isEmpty)
        let events = api.send(.get, "/v1/devices/\(device)/events?type=push.delivered", key: key).items
        #expect(events.count == 5)
        #expect(events.allSatisfy { ($0["data"] as? [String: Any])?["inForeground"] as? Bool == true })
    }

    @Test func anApnsIdIsGeneratedWhenAbsent() {
        let response = push()
        let id = response.headers["apns-id"] ?? ""
        #expect(UUID(uuidString: id) != nil && response.json["apnsId"] as? String == id)
    }

    @Test func aSimctlFileNamesTheApp() {
        let file = #"{"Simulator Target Bundle":"com.example.weather","aps":{"content-available":1}}"#
        #expect(push(file, defaults: false).json["outcome"] as? String == "delivered")
    }

    @Test func deferredThenCoalescedInLowPowerMode() {
        let conditions = api.send(.patch, "/v1/devices/\(device)/conditions", key: key, json: #"{"lowPowerMode":true}"#)
        #expect(conditions.status == 200)
        let first = push()
        #expect(first.json["outcome"] as? String == "deferred" && first.json["reason"] as? String == "lowPowerMode")
        let second = push()
        #expect(second.json["outcome"] as? String == "coalesced")
        #expect(second.json["replacedApnsId"] as? String == first.json["apnsId"] as? String)
    }

    @Test func anAlertPushIsDeliveredAsANotification() {
        let response = push(#"{"aps":{"alert":"Hi"}}"#, headers: ["apns-push-type": "alert", "apns-priority": "10"])
        #expect(response.json["outcome"] as? String == "delivered" && response.json["notificationDelivered"] as? Bool == true)
        #expect(response.json["runId"] is NSNull)
    }
}
