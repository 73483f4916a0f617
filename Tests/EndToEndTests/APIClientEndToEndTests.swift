import BGEmuClient
import Foundation
import Synchronization
import Testing

/// The one client (`BGEmuClient`) against the real executable on a loopback port: typed calls, the problem document
/// of a refusal, the pager across pages, exact numbers, and an event stream resumed after the service restarts,
/// with no event lost or given twice.
@Suite(.serialized) struct APIClientEndToEndTests {
    static let key = "apiclient-e2e-key-0123456789"

    func start() throws -> (LiveService, APIClient) {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        return (service, try APIClient(server: "http://127.0.0.1:\(service.port)", apiKey: Self.key, timeout: 30))
    }

    @Test func typedCallsDriveADeviceFromCreationToARun() throws {
        let (service, client) = try start()
        defer { service.stop() }
        let device = try client.createDevice(DeviceDraft(name: "client é", seed: UInt64.max))
        let id = try #require(device["id"]?.stringValue)
        #expect(device["name"]?.stringValue == "client é")
        #expect(device["seed"]?.exactNumber?.uint64Value == UInt64.max)  // exact, past 2^53
        let app = try client.installApp(id, [
            "bundleId": "com.example.news",
            "infoPlist": ["UIBackgroundModes": ["fetch"], "BGTaskSchedulerPermittedIdentifiers": ["com.example.news.refresh"]],
        ])
        #expect(app["bundleId"]?.stringValue == "com.example.news")
        #expect(try client.perform(.launch, id, "com.example.news")["state"]?.stringValue == "active")
        try client.submitTaskRequest(id, "com.example.news", ["kind": "appRefresh", "identifier": "com.example.news.refresh"])
        #expect(try client.taskRequests(id, "com.example.news").map { $0["identifier"]?.stringValue } == ["com.example.news.refresh"])
        #expect(try client.perform(.background, id, "com.example.news")["state"]?.stringValue == "background")
        let advanced = try client.advanceClock(id, .seconds(3600))
        #expect(advanced["now"]?.stringValue == "2026-01-01T01:00:00.000Z")
        let types = try client.events(id).compactMap { $0["type"]?.stringValue }
        #expect(types.contains("run.started") && types.first == "device.created")
        try client.deleteDevice(id)
        #expect(throws: ClientFailure.self) { try client.device(id) }
    }

    @Test func aRefusalIsItsProblemDocumentAndADeadServiceIsUnreachable() throws {
        let (service, client) = try start()
        let id = try #require(try client.createDevice(DeviceDraft(name: "x"))["id"]?.stringValue)
        do {
            _ = try client.advanceClock(id, .seconds(-5))
            Issue.record("a negative advance was accepted")
        } catch .refused(let problem) {
            #expect(problem.status == 422 && problem.code == "validationFailed" && problem.fields == ["seconds"])
            #expect(problem.explanation.contains("422"))
        } catch {
            Issue.record("not a refusal: \(error)")
        }
        do {
            _ = try client.device("dev_nope")
        } catch .refused(let problem) {
            #expect(problem.status == 404)
        } catch {
            Issue.record("not a refusal: \(error)")
        }
        let wrongKey = try APIClient(server: client.server, apiKey: "not-a-key-0123456789")
        #expect(throws: ClientFailure.self) { _ = try wrongKey.devices() }
        service.stop()
        do {
            _ = try client.devices()
        } catch ClientFailure.unreachable(let server, _) {
            #expect(server == client.server)
        }
        #expect(throws: ClientFailure.invalidServer("ftp://x")) { _ = try APIClient(server: "ftp://x", apiKey: "k") }
    }

    @Test func thePagerFollowsEveryPageOnce() throws {
        let (service, client) = try start()
        defer { service.stop() }
        let id = try #require(try client.createDevice(DeviceDraft(name: "pages"))["id"]?.stringValue)
        for _ in 0..<7 { _ = try client.advanceClock(id, .seconds(60)) }
        let all = try client.events(id)
        var pages: [[JSONValue]] = []
        try client.forEachPage(BGEmuClientPaths.events(id), limit: 3) { pages.append($0) }
        #expect(pages.count >= 3 && pages.dropLast().allSatisfy { $0.count == 3 })
        let ids = pages.flatMap { $0 }.compactMap { $0["id"]?.intValue }
        #expect(ids == all.compactMap { $0["id"]?.intValue })
        #expect(Set(ids).count == ids.count)
    }

    @Test func aFollowedStreamResumesAfterARestartWithNoGapOrDuplicate() throws {
        let (service, client) = try start()
        defer { service.stop() }
        let port = service.port
        let id = try #require(try client.createDevice(DeviceDraft(name: "follow"))["id"]?.stringValue)
        let start = try client.newestEventId(id)
        let seen = Mutex<[Int]>([])
        let interruptions = Mutex<[EventStreamInterruption]>([])
        let stop = Atomic<Bool>(false)
        let follower = Thread {
            try? client.followEvents(
                id, after: start, filter: EventFilter(typePrefix: "clock."), reconnectWhenUnreachable: true,
                shouldStop: { stop.load(ordering: .relaxed) },
                onInterruption: { interruption in interruptions.withLock { $0.append(interruption) } }
            ) { event, _ in
                if let eventId = event["id"]?.intValue { seen.withLock { $0.append(eventId) } }
            }
        }
        follower.start()
        defer { stop.store(true, ordering: .relaxed) }
        _ = try client.advanceClock(id, .seconds(60))
        #expect(waitUntil { seen.withLock { $0.count } == 1 })
        service.stop()
        try service.start(apiKey: Self.key, extraArguments: ["--port", String(port)])
        for seconds in [120.0, 180] { _ = try client.advanceClock(id, .seconds(seconds)) }
        #expect(waitUntil(timeout: 60) { seen.withLock { $0.count } >= 3 })  // a restart and a reconnection
        let stored = try client.events(id, after: start, filter: EventFilter(typePrefix: "clock.")).compactMap { $0["id"]?.intValue }
        #expect(seen.withLock { $0 } == stored)  // every stored event once, in order
        #expect(interruptions.withLock { $0 }.contains { if case .ended = $0 { true } else { false } })
    }

    /// Polls `condition` until it holds or `timeout` seconds pass (generous: it returns as soon as it holds).
    func waitUntil(timeout: Double = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }
}

/// Paths the tests page through by hand.
enum BGEmuClientPaths {
    static func events(_ device: String) -> String { PathEncoding.path("v1", "devices", device, "events") }
}
