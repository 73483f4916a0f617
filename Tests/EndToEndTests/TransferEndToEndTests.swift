import Foundation
import Testing

/// Background URL sessions through the real executable (R32, R33).
@Suite(.serialized) struct TransferEndToEndTests {
    static let key = "transfer-e2e-key-0123456789"
    static let bundle = "com.example.news"

    /// A manual-clock device with the news app launched and a background session `bg`; answers the app's path.
    static func setUp(_ client: TestClient) throws -> (device: String, app: String) {
        let device = try client.request("POST", "/v1/devices", json: #"{"name":"transfers","clock":{"mode":"manual"}}"#)
        let id = try #require(device.json["id"] as? String)
        let install = #"{"bundleId":"\#(bundle)","infoPlist":{"UIBackgroundModes":["fetch"]}}"#
        #expect(try client.request("POST", "/v1/devices/\(id)/apps", json: install).status == 201)
        let app = "/v1/devices/\(id)/apps/\(bundle)"
        #expect(try client.request("POST", "\(app)/launch").status == 200)
        #expect(try client.request("POST", "\(app)/url-sessions", json: #"{"identifier":"bg","sessionSendsLaunchEvents":true}"#).status == 201)
        return (id, app)
    }

    static func types(_ client: TestClient, _ device: String, prefix: String) throws -> [String] {
        let page = try client.request("GET", "/v1/devices/\(device)/events?limit=500&type=\(prefix)")
        return (page.json["items"] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
    }

    @Test func aTransferCompletesWhileTheAppIsTerminatedAndRelaunchesIt() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let (device, app) = try Self.setUp(client)
        // 100 MB at the default 5 MB/s Wi-Fi: 20 virtual seconds.
        let transfer = try client.request("POST", "\(app)/url-sessions/bg/transfers", json: #"{"kind":"download","bytes":100000000}"#)
        #expect(transfer.status == 201)
        let transferId = try #require(transfer.json["id"] as? String)
        #expect(try client.request("POST", "\(app)/background").status == 200)
        #expect(try client.request("POST", "/v1/devices/\(device)/clock/advance", json: #"{"seconds":10}"#).status == 200)
        #expect(try client.request("POST", "\(app)/terminate").status == 200)
        #expect(try client.request("GET", app).json["state"] as? String == "notRunning")
        #expect(try client.request("POST", "/v1/devices/\(device)/clock/advance", json: #"{"seconds":15}"#).status == 200)
        let done = try client.request("GET", "\(app)/transfers/\(transferId)")
        #expect(done.json["state"] as? String == "completed" && done.json["bytesTransferred"] as? Int == 100_000_000)
        // Relaunched into the background for handleEventsForBackgroundURLSession.
        #expect(try client.request("GET", app).json["state"] as? String == "background")
        let runs = try client.request("GET", "\(app)/runs").json["items"] as? [[String: Any]] ?? []
        let run = try #require(runs.last)
        #expect(run["kind"] as? String == "urlSessionEvents" && run["launchedApp"] as? Bool == true)
        #expect(try client.request("POST", "\(app)/url-sessions/bg/finish-events").json["state"] as? String == "completed")
        #expect(try client.request("GET", app).json["state"] as? String == "suspended")
        #expect(try Self.types(client, device, prefix: "transfer.") == [
            "transfer.enqueued", "transfer.started", "transfer.progress", "transfer.progress", "transfer.progress",
            "transfer.completed",
        ])
    }

    @Test func forceQuitCancelsTransfersReportedAtTheNextLaunch() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let (device, app) = try Self.setUp(client)
        let transfer = try client.request("POST", "\(app)/url-sessions/bg/transfers", json: #"{"kind":"upload","bytes":100000000}"#)
        let transferId = try #require(transfer.json["id"] as? String)
        #expect(try client.request("POST", "/v1/devices/\(device)/clock/advance", json: #"{"seconds":2}"#).status == 200)
        #expect(try client.request("POST", "\(app)/force-quit").status == 200)
        let cancelled = try client.request("GET", "\(app)/transfers/\(transferId)")
        #expect(cancelled.json["state"] as? String == "cancelled" && cancelled.json["bytesTransferred"] as? Int == 10_000_000)
        #expect((cancelled.json["error"] as? [String: Any])?["code"] as? Int == -999)
        #expect(try client.request("POST", "/v1/devices/\(device)/clock/advance", json: #"{"seconds":600}"#).status == 200)
        #expect(try Self.types(client, device, prefix: "transfer.failed").isEmpty)
        #expect(try client.request("POST", "\(app)/launch").status == 200)
        let failed = try client.request("GET", "/v1/devices/\(device)/events?type=transfer.failed").json["items"] as? [[String: Any]] ?? []
        let data = try #require(failed.first?["data"] as? [String: Any])
        #expect(data["errorCode"] as? Int == -999 && data["transferId"] as? String == transferId && data["reason"] as? String == "forceQuit")
    }
}
