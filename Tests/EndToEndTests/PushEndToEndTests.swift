import Foundation
import Testing

/// `POST /push` over HTTP through the real executable: APNs's answers, a `simctl push` file, and a delivered
/// push that shows up as a run (R29–R31).
@Suite(.serialized) struct PushEndToEndTests {
    static let key = "push-e2e-key-0123456789"
    static let bundle = "com.example.news"

    @Test func validationTableSimctlFileAndADeliveredPush() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let device = try client.request("POST", "/v1/devices", json: #"{"name":"push","clock":{"mode":"manual"}}"#)
        let id = try #require(device.json["id"] as? String)
        let install = """
            {"bundleId":"\(Self.bundle)","infoPlist":{"UIBackgroundModes":["remote-notification"]},
             "behavior":{"remoteNotification":{"completeAfter":2,"result":"newData"}}}
            """
        #expect(try client.request("POST", "/v1/devices/\(id)/apps", json: install).status == 201)

        func push(_ payload: String, _ headers: [(String, String)]) throws -> TestClient.Response {
            try client.request("POST", "/v1/devices/\(id)/push", body: Array(payload.utf8), headers: headers)
        }
        let silent = #"{"aps":{"content-available":1}}"#
        let background = [("apns-topic", Self.bundle), ("apns-push-type", "background"), ("apns-priority", "5")]
        let big = #"{"aps":{"content-available":1},"x":""# + String(repeating: "a", count: 4100) + #""}"#
        let table: [(String, [(String, String)], Int, String)] = [
            ("", background, 400, "PayloadEmpty"),
            (big, background, 413, "PayloadTooLarge"),
            ("{", background, 400, "BadPayload"),
            (silent, [("apns-push-type", "background")], 400, "MissingTopic"),
            (silent, [("apns-topic", "com.example.none")], 400, "BadTopic"),
            (silent, [("apns-topic", Self.bundle), ("apns-push-type", "voip")], 400, "InvalidPushType"),
            (silent, background + [("apns-push-type", "alert")], 400, "DuplicateHeaders"),
            (silent, [("apns-topic", Self.bundle), ("apns-push-type", "background"), ("apns-priority", "10")], 400, "BadPriority"),
            (silent, background + [("apns-expiration", "soon")], 400, "BadExpirationDate"),
            (silent, background + [("apns-collapse-id", String(repeating: "c", count: 65))], 400, "BadCollapseId"),
            (silent, background + [("apns-id", "nope")], 400, "BadMessageId"),
        ]
        for (payload, headers, status, reason) in table {
            let response = try push(payload, headers)
            #expect(response.status == status, "\(reason)")
            #expect(response.json["code"] as? String == reason, "\(reason)")
            #expect(response.header("Content-Type") == "application/problem+json", "\(reason)")
        }

        let file = #"{"Simulator Target Bundle":"com.example.news","aps":{"alert":{"title":"Hi","body":"There"}}}"#
        let alert = try push(file, [])
        #expect(alert.status == 200 && alert.json["notificationDelivered"] as? Bool == true)

        let delivered = try push(silent, background)
        #expect(delivered.status == 200 && delivered.json["outcome"] as? String == "delivered")
        #expect(delivered.header("apns-id") == delivered.json["apnsId"] as? String)
        let runId = try #require(delivered.json["runId"] as? String)
        let app = "/v1/devices/\(id)/apps/\(Self.bundle)"
        let run = try client.request("GET", "\(app)/runs/\(runId)")
        #expect(run.json["kind"] as? String == "remoteNotification" && run.json["state"] as? String == "running")
        #expect(try client.request("POST", "/v1/devices/\(id)/clock/advance", json: #"{"seconds":3}"#).status == 200)
        #expect(try client.request("GET", "\(app)/runs/\(runId)").json["result"] as? String == "newData")
        let events = try client.request("GET", "/v1/devices/\(id)/events?type=push.&limit=100")
        let types = (events.json["items"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
        #expect(types == ["push.received", "push.delivered", "push.received", "push.delivered"])
    }
}
