import Foundation
import Testing

/// The continuous background modes through the real executable (R35–R37): what holds an app running survives a
/// `kill -9` of the service, and location changes relaunch a terminated app.
@Suite(.serialized) struct ActivityEndToEndTests {
    static let key = "activity-e2e-key-0123456789"

    /// A manual-clock device with `bundle` installed declaring `modes`; answers the device id and the app's path.
    static func setUp(_ client: TestClient, bundle: String, modes: String) throws -> (device: String, app: String) {
        let device = try client.request("POST", "/v1/devices", json: #"{"name":"modes","clock":{"mode":"manual"}}"#)
        let id = try #require(device.json["id"] as? String)
        let install = #"{"bundleId":"\#(bundle)","infoPlist":{"UIBackgroundModes":\#(modes)}}"#
        #expect(try client.request("POST", "/v1/devices/\(id)/apps", json: install).status == 201)
        return (id, "/v1/devices/\(id)/apps/\(bundle)")
    }

    static func advance(_ client: TestClient, _ device: String, _ seconds: Int) throws {
        #expect(try client.request("POST", "/v1/devices/\(device)/clock/advance", json: #"{"seconds":\#(seconds)}"#).status == 200)
    }

    static func state(_ client: TestClient, _ app: String) throws -> String? {
        try client.request("GET", app).json["state"] as? String
    }

    @Test func R35_playingAudioKeepsTheAppRunningAcrossAKillOfTheService() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        var client = service.client(key: Self.key)
        let (device, app) = try Self.setUp(client, bundle: "com.example.music", modes: #"["audio"]"#)
        #expect(try client.request("POST", "\(app)/launch").status == 200)
        let playing = try client.request("PUT", "\(app)/activities/audio", json: #"{"active":true}"#)
        #expect(playing.status == 200 && playing.json["keepsAppRunning"] as? Bool == true)
        #expect(try client.request("POST", "\(app)/background").status == 200)
        try Self.advance(client, device, 120)
        #expect(try Self.state(client, app) == "background")

        // Killed and started again on the same database: the app is still playing, and still held.
        #expect(service.stop(signal: SIGKILL) == SIGKILL)
        try service.start(apiKey: Self.key)
        client = service.client(key: Self.key)
        #expect(try Self.state(client, app) == "background")
        let activities = try client.request("GET", "\(app)/activities").json["items"] as? [[String: Any]] ?? []
        #expect(activities.contains { $0["activity"] as? String == "audio" && $0["active"] as? Bool == true })
        try Self.advance(client, device, 3600)
        #expect(try Self.state(client, app) == "background")

        // Audio stops: nothing holds the app any more, and it is suspended.
        let stopped = try client.request("PUT", "\(app)/activities/audio", json: #"{"active":false}"#)
        #expect(stopped.json["keepsAppRunning"] as? Bool == false)
        try Self.advance(client, device, 30)
        #expect(try Self.state(client, app) == "suspended")
    }

    @Test func R36_aSignificantLocationChangeRelaunchesATerminatedApp() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let (device, app) = try Self.setUp(client, bundle: "com.example.maps", modes: #"["location"]"#)
        #expect(try client.request("POST", "\(app)/launch").status == 200)
        let monitoring = try client.request("PUT", "\(app)/activities/significantLocationChanges", json: #"{"active":true}"#)
        #expect(monitoring.status == 200)
        #expect(try client.request("POST", "\(app)/background").status == 200)
        #expect(try client.request("POST", "\(app)/terminate").status == 200)
        #expect(try Self.state(client, app) == "notRunning")
        try Self.advance(client, device, 600)

        let moved = try client.request("POST", "/v1/devices/\(device)/location", json: #"{"latitude":48.85,"longitude":2.35}"#)
        #expect(moved.status == 200 && moved.json["wokenApps"] as? [String] == ["com.example.maps"])
        #expect(try Self.state(client, app) == "background")
        let runs = try client.request("GET", "\(app)/runs").json["items"] as? [[String: Any]] ?? []
        #expect(runs.last?["kind"] as? String == "location" && runs.last?["launchedApp"] as? Bool == true)
    }
}
