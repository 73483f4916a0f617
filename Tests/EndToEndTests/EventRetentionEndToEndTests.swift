import Foundation
import Testing

/// Issue 12 §2, event retention, on the real executable: the pruner runs in the background, a stream resuming from
/// before the retained range is refused with `410` instead of skipping events, and resuming where the problem
/// says gets every held event and then live ones.
@Suite(.serialized) struct EventRetentionEndToEndTests {
    @Test
    func eventsPruned_aStreamResumingAfterPruningIsGoneThenResumesFromTheOldestHeldEvent() throws {
        let key = "retention-e2e-key-0123456789"
        let service = try LiveService()
        // The settings by environment variable, as a service container sets them.
        try service.start(apiKey: key, environment: [
            "BGEMU_EVENT_RETENTION_PER_DEVICE": "3", "BGEMU_EVENT_RETENTION_INTERVAL": "0.2",
        ])
        let client = service.client(key: key)
        let device = try #require(try client.request("POST", "/v1/devices", json: #"{"name":"a"}"#).json["id"] as? String)
        let path = "/v1/devices/\(device)/events"

        // A client sees the first event, then goes away while six more happen.
        let first = try EventStreamConnection(port: service.port, key: key, path: path, lastEventId: 0)
        let seen = try first.read(events: 1)
        #expect(seen.map(\.type) == ["device.created"])
        let lastSeen = try #require(seen.last?.id)
        first.close()
        for level in [90, 80, 70, 60, 50, 40] {
            #expect(try client.request("PATCH", "/v1/devices/\(device)/conditions", json: #"{"batteryLevel":\#(level)}"#).status == 200)
        }

        // The pruner keeps the newest three; a page after the last seen id then says what is gone.
        var problem: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let page = try client.request("GET", "\(path)?after=\(lastSeen)")
            if page.status == 410 {
                #expect(page.header("Content-Type") == "application/problem+json")
                problem = page.json
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(problem["code"] as? String == "eventsPruned")
        let lastPruned = try #require((problem["lastPrunedEventId"] as? Int).map(Int64.init))
        let oldest = try #require((problem["oldestEventId"] as? Int).map(Int64.init))
        let held = (try client.request("GET", path).json["items"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? Int).map(Int64.init) }
        #expect(held.count == 3)
        #expect(held.first == oldest && lastPruned < oldest && lastPruned > lastSeen)

        // The stream resuming after the last seen id is refused before it starts: nothing is skipped silently.
        let refused = try EventStreamConnection(port: service.port, key: key, path: path, lastEventId: lastSeen)
        #expect(refused.status == 410)
        #expect(refused.header("Content-Type") == "application/problem+json")
        refused.close()

        // Resumed after the last pruned id: every held event in order, then live ones.
        let resumed = try EventStreamConnection(port: service.port, key: key, path: path, lastEventId: lastPruned)
        #expect(resumed.status == 200)
        #expect(try resumed.read(events: 3).map(\.id) == held)
        #expect(try client.request("PATCH", "/v1/devices/\(device)/conditions", json: #"{"batteryLevel":30}"#).status == 200)
        let live = try resumed.read(events: 1)
        #expect(live.map(\.type) == ["device.conditionsChanged"] && (live.first?.id ?? 0) > held.last ?? 0)
        resumed.close()
        service.stop()

        // Started again without a retention: what was pruned stays known, so the answer stays a 410.
        try service.start(apiKey: key)
        defer { service.stop() }
        let again = try EventStreamConnection(port: service.port, key: key, path: path, lastEventId: lastSeen)
        #expect(again.status == 410)
        again.close()
        #expect(try service.client(key: key).request("GET", "\(path)?after=\(lastPruned)").status == 200)
    }
}
