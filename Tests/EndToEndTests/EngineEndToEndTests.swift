import Foundation
import Glibc
import Testing

/// The engine through the real executable: determinism, survival of `kill -9`, realtime clocks.
@Suite(.serialized) struct EngineEndToEndTests {
    static let key = "engine-e2e-key-0123456789"
    static let bundle = "com.example.weather"

    /// Creates a device with `seed` and the weather app; answers the device id.
    static func makeDevice(_ client: TestClient, seed: Int, clock: String = #"{"mode":"manual"}"#) throws -> String {
        let device = try client.request("POST", "/v1/devices", json: #"{"name":"e2e","seed":\#(seed),"clock":\#(clock)}"#)
        let id = try #require(device.json["id"] as? String)
        let install = """
            {"bundleId":"\(bundle)","infoPlist":{"UIBackgroundModes":["fetch","processing"],
             "BGTaskSchedulerPermittedIdentifiers":["\(bundle).refresh"]},
             "behavior":{"appRefresh":{"completeAfter":4,"result":"success","resubmit":true,"resubmitAfter":1800},
                         "fetch":{"completeAfter":"never"}}}
            """
        #expect(try client.request("POST", "/v1/devices/\(id)/apps", json: install).status == 201)
        return id
    }

    /// The first half of a timeline: launch, submit, fetch, a background task, background, 3 hours.
    static func firstHalf(_ client: TestClient, _ id: String) throws {
        let app = "/v1/devices/\(id)/apps/\(bundle)"
        #expect(try client.request("POST", "\(app)/launch").status == 200)
        #expect(try client.request("POST", "\(app)/task-requests", json: #"{"kind":"appRefresh","identifier":"\#(bundle).refresh"}"#).status == 201)
        #expect(try client.request("PUT", "\(app)/fetch-interval", json: #"{"interval":"minimum"}"#).status == 200)
        #expect(try client.request("POST", "\(app)/background-tasks", json: #"{"name":"save"}"#).status == 201)
        #expect(try client.request("POST", "\(app)/background").status == 200)
        #expect(try client.request("POST", "/v1/devices/\(id)/clock/advance", json: #"{"seconds":10800}"#).status == 200)
    }

    static func secondHalf(_ client: TestClient, _ id: String) throws {
        #expect(try client.request("PATCH", "/v1/devices/\(id)/conditions", json: #"{"batteryLevel":15}"#).status == 200)
        #expect(try client.request("POST", "/v1/devices/\(id)/clock/advance", json: #"{"seconds":75600}"#).status == 200)
    }

    /// Every event of the device, without what differs between devices and runs (ids, device id, wall time).
    static func timeline(_ client: TestClient, _ id: String) throws -> [String] {
        var lines: [String] = []
        var cursor: String?
        repeat {
            let page = try client.request("GET", "/v1/devices/\(id)/events?limit=500" + (cursor.map { "&cursor=\($0)" } ?? ""))
            #expect(page.status == 200)
            for item in page.json["items"] as? [[String: Any]] ?? [] {
                let data = try JSONSerialization.data(withJSONObject: item["data"] ?? [:], options: [.sortedKeys])
                lines.append("\(item["at"] ?? "") \(item["type"] ?? "") \(item["bundleId"] ?? "-") \(String(decoding: data, as: UTF8.self))")
            }
            cursor = page.json["nextCursor"] as? String
        } while cursor != nil
        return lines
    }

    @Test func sameSeedSameRequestsSameEvents() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let a = try Self.makeDevice(client, seed: 11)
        let b = try Self.makeDevice(client, seed: 11)
        for id in [a, b] {
            try Self.firstHalf(client, id)
            try Self.secondHalf(client, id)
        }
        let timelineA = try Self.timeline(client, a)
        #expect(timelineA.count > 50)
        #expect(timelineA == (try Self.timeline(client, b)))
    }

    @Test func aKill9MidTimelineChangesNothing() throws {
        let steady = try LiveService()
        try steady.start(apiKey: Self.key)
        let steadyClient = steady.client(key: Self.key)
        let reference = try Self.makeDevice(steadyClient, seed: 5)
        try Self.firstHalf(steadyClient, reference)
        try Self.secondHalf(steadyClient, reference)
        let expected = try Self.timeline(steadyClient, reference)
        steady.stop()

        let crashing = try LiveService()
        try crashing.start(apiKey: Self.key)
        let id = try Self.makeDevice(crashing.client(key: Self.key), seed: 5)
        try Self.firstHalf(crashing.client(key: Self.key), id)
        crashing.stop(signal: SIGKILL)
        try crashing.start(apiKey: Self.key)
        defer { crashing.stop() }
        try Self.secondHalf(crashing.client(key: Self.key), id)
        #expect(try Self.timeline(crashing.client(key: Self.key), id) == expected)
    }

    @Test func realtimeClockAtScale60ExpiresA30SecondAllowanceInHalfASecond() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let id = try Self.makeDevice(client, seed: 1, clock: #"{"mode":"realtime","scale":60}"#)
        let app = "/v1/devices/\(id)/apps/\(Self.bundle)"
        _ = try client.request("POST", "\(app)/launch")
        _ = try client.request("POST", "\(app)/background-tasks", json: #"{"name":"forgotten"}"#)
        let started = Date()
        #expect(try client.request("POST", "\(app)/background").json["state"] as? String == "background")
        var state = ""
        while state != "notRunning", Date().timeIntervalSince(started) < 30 {
            usleep(20_000)
            state = try client.request("GET", app).json["state"] as? String ?? ""
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(state == "notRunning")
        // No sooner than the scaled allowance (0.5 s), and well before the 30 s an unscaled clock would take: the
        // driver's latency is a speed target (for Benchmarks/bench.py), not a figure a loaded machine can promise.
        #expect(elapsed > 0.4 && elapsed < 15, "the watchdog came after \(elapsed) s of wall time")
        let tasks = try client.request("GET", "\(app)/background-tasks").json["items"] as? [[String: Any]] ?? []
        #expect(tasks.first?["state"] as? String == "expired")
    }
}
