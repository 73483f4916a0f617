import BGEmuClient
import Foundation
import Synchronization
import Testing

/// `bgemu tenants move` between two real shards under a write load (issue 30 §2): nothing acknowledged is lost,
/// the key works on the target, a resume with an id read on the source continues exactly, and the source no
/// longer has the tenant.
@Suite(.serialized) struct TenantMoveEndToEndTests {
    static let sourceKey = "move-e2e-source-key-0123456789"
    static let targetKey = "move-e2e-target-key-0123456789"

    /// Every event of the tenant after `after`, page by page, as (id, type, deviceId).
    private func events(_ client: TestClient, after: Int64) throws -> [(id: Int64, type: String, device: String)] {
        var all: [(id: Int64, type: String, device: String)] = []
        var after = after
        while true {
            let page = try client.request("GET", "/v1/events?after=\(after)&limit=500")
            #expect(page.status == 200, "\(page.text)")
            let items = page.json["items"] as? [[String: Any]] ?? []
            for item in items {
                all.append(((item["id"] as? NSNumber)?.int64Value ?? -1, item["type"] as? String ?? "", item["deviceId"] as? String ?? ""))
            }
            guard page.json["nextCursor"] is String, let last = all.last else { return all }
            after = last.id
        }
    }

    @Test func aMoveUnderAWriteLoadLosesNothingAndResumesExactly() throws {
        let source = try LiveService()
        try source.start(apiKey: Self.sourceKey, extraArguments: ["--shard-id", "s1"])
        defer { source.stop() }
        let target = try LiveService()
        try target.start(apiKey: Self.targetKey, extraArguments: ["--shard-id", "s2"])
        defer { target.stop() }
        // The target's own tenant has events with the ids the source's will have: they collide.
        for index in 0..<30 {
            #expect(try target.client(key: Self.targetKey).request("POST", "/v1/devices", json: #"{"name":"t\#(index)"}"#).status == 201)
        }
        let admin = source.client(key: LiveService.adminToken)
        let created = try admin.request("POST", "/v1/admin/tenants", json: #"{"name":"mover"}"#)
        let tenantId = try #require(created.json["id"] as? String)
        let key = try #require(created.json["apiKey"] as? String)
        for index in 0..<10 {
            #expect(try source.client(key: key).request("POST", "/v1/devices", json: #"{"name":"before\#(index)"}"#).status == 201)
        }
        // What a client read on the source before the move: up to X.
        let readBefore = try events(source.client(key: key), after: 0)
        let x = try #require(readBefore.last?.id)

        // A writer creating devices without pause, retrying a 503 (fenced) and, once the tenant is gone from the
        // source (401), on the shard the map now names, as HAProxy would send it.
        let load = WriteLoad(port: source.port)
        let writer = Thread {
            var index = 0
            while !load.stopped {
                let client = TestClient(port: load.port, key: key)
                guard let answer = try? client.request("POST", "/v1/devices", json: #"{"name":"during\#(index)"}"#) else { continue }
                switch answer.status {
                case 201:
                    if let id = answer.json["id"] as? String { load.acknowledge(id) }
                    index += 1
                case 503:
                    load.refused()
                    usleep(20_000)
                default:
                    usleep(20_000)
                }
            }
        }
        writer.start()
        // Waits on the writer's progress (with a deadline, so that a writer that cannot write fails the test, not
        // hangs it).
        func waitFor(_ what: String, _ condition: () -> Bool) throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while !condition() {
                guard ContinuousClock.now < deadline else {
                    load.stopped = true
                    throw WaitTimedOut(what: what)
                }
                usleep(10_000)
            }
        }
        try waitFor("20 writes before the move") { load.acknowledged.count >= 20 }

        let mapFile = source.directory.appendingPathComponent("tenants.map").path
        try "ten_other s1\n\(tenantId) s1\n".write(toFile: mapFile, atomically: true, encoding: .utf8)
        let move = try CommandLineRunner().run([
            "tenants", "move", "mover", "--from", "http://127.0.0.1:\(source.port)", "--to", "http://127.0.0.1:\(target.port)",
            "--admin-token", LiveService.adminToken, "--map-file", mapFile,
        ])
        #expect(move.status == 0, "\(move.stderr)")
        #expect(move.lines == ["\(tenantId) s2"])
        load.port = target.port
        let afterMove = load.acknowledged.count
        try waitFor("10 writes on the target after the move") { load.acknowledged.count >= afterMove + 10 }
        load.stopped = true
        try waitFor("the writer to stop") { !writer.isExecuting }

        #expect(try String(contentsOfFile: mapFile, encoding: .utf8) == "ten_other s1\n\(tenantId) s2\n")
        // Every acknowledged write is on the target, and the key works there.
        let moved = target.client(key: key)
        for id in load.acknowledged {
            #expect(try moved.request("GET", "/v1/devices/\(id)").status == 200, "device \(id)")
        }
        // The source no longer has the tenant.
        #expect(try admin.request("GET", "/v1/admin/tenants/\(tenantId)").status == 404)
        #expect(try source.client(key: key).request("GET", "/v1/devices").status == 401)

        // A page resume after X continues exactly: the events before it were those read, and nothing repeats.
        let all = try events(moved, after: 0)
        #expect(all.prefix(readBefore.count).map(\.type) == readBefore.map(\.type))
        #expect(all.prefix(readBefore.count).map(\.device) == readBefore.map(\.device))
        let resumed = try events(moved, after: x)
        #expect(resumed.map(\.id) == all.dropFirst(readBefore.count).map(\.id))
        #expect(Set(all.map(\.id)).count == all.count)
        #expect(all.map(\.id) == all.map(\.id).sorted())
        // One device.created per acknowledged device, none twice.
        let createdDevices = all.filter { $0.type == "device.created" }.map(\.device)
        #expect(Set(load.acknowledged).isSubset(of: Set(createdDevices)))
        #expect(load.refusals > 0, "the writer met the fence")

        // An SSE resume with Last-Event-ID: X gets the same events, in order.
        let wanted = Array(resumed.prefix(15).map(\.id))
        var streamed: [Int64] = []
        let client = try APIClient(server: "http://127.0.0.1:\(target.port)", apiKey: key)
        let deadline = Date().addingTimeInterval(20)
        try client.followEvents(
            "/v1/events", after: String(x), reconnectWhenUnreachable: false,
            shouldStop: { streamed.count >= wanted.count || Date() > deadline }
        ) { event in
            if let id = event.id.flatMap({ Int64($0) }) { streamed.append(id) }
        }
        #expect(Array(streamed.prefix(wanted.count)) == wanted)
        // The target's own tenant is untouched.
        #expect(try events(target.client(key: Self.targetKey), after: 0).count == 30)
    }
}

/// The writer thread's shared state: where it writes, whether to stop, and what was acknowledged.
final class WriteLoad: Sendable {
    private let state: Mutex<(port: Int, stopped: Bool, acknowledged: [String], refusals: Int)>

    init(port: Int) { state = Mutex((port, false, [], 0)) }

    var port: Int {
        get { state.withLock { $0.port } }
        set { state.withLock { $0.port = newValue } }
    }
    var stopped: Bool {
        get { state.withLock { $0.stopped } }
        set { state.withLock { $0.stopped = newValue } }
    }
    var acknowledged: [String] { state.withLock { $0.acknowledged } }
    var refusals: Int { state.withLock { $0.refusals } }
    func acknowledge(_ id: String) { state.withLock { $0.acknowledged.append(id) } }
    func refused() { state.withLock { $0.refusals += 1 } }
}

/// A condition a test waited on did not come within its deadline.
private struct WaitTimedOut: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting for \(what)" }
}
