import Emulation
import Foundation
import Synchronization
import Testing
@testable import API
import Stores

/// The hub on the real SQLite log while several request threads commit and publish at once.
@Suite struct EventHubConcurrencyTests {
    @Test(arguments: 0..<3)
    func replayingAndLiveStreamsGetEveryEventOnceInOrderUnderConcurrentCommits(_ round: Int) throws {
        let api = try EventTestHarness()
        let tenants = [try api.makeTenant("a\(round)"), try api.makeTenant("b\(round)")]
        var devices: [(tenant: String, device: String)] = []
        for tenant in tenants {
            for n in 0..<2 { devices.append((tenant.id, try api.makeDevice(key: tenant.key, name: "d\(n)"))) }
        }
        // History longer than a replay page, so the replay reads several pages while commits go on.
        for n in 0..<(EventHub.replayPageSize * 2 + 100) {
            let (tenant, device) = devices[n % devices.count]
            try api.record([testEvent(n.isMultiple(of: 3) ? "run.started" : "app.delegate")], deviceId: device, tenantId: tenant)
        }

        let writers = 4, commitsPerWriter = 150
        let started = Mutex(false)
        let targets = devices
        let finished = DispatchSemaphore(value: 0)
        let committing = Thread {
            defer { finished.signal() }
            DispatchQueue.concurrentPerform(iterations: writers) { w in
                for n in 0..<commitsPerWriter {
                    let (tenant, device) = targets[(w + n) % targets.count]
                    _ = try? api.record([testEvent("run.completed"), testEvent("app.stateChanged")], deviceId: device, tenantId: tenant)
                    if n == 5 { started.withLock { $0 = true } }
                }
            }
        }
        committing.start()
        #expect(RecordingStreamWriter().wait { _ in started.withLock { $0 } })
        let replaying = api.hub.stream(tenantId: tenants[0].id, filter: EventFilter(), lastEventId: 0)
        let replayingRuns = api.hub.stream(tenantId: tenants[0].id, filter: EventFilter(typePrefix: "run."), lastEventId: 100)
        let live = api.hub.stream(tenantId: tenants[1].id, filter: EventFilter(), lastEventId: nil)
        let all = RecordingStreamWriter(), runs = RecordingStreamWriter(), liveWriter = RecordingStreamWriter()
        for (response, writer) in [(replaying, all), (replayingRuns, runs), (live, liveWriter)] {
            guard case .stream(let stream) = response.body else { Issue.record("not a stream"); return }
            stream.start(writer)
        }

        #expect(finished.wait(timeout: .now() + 60) == .success)
        let total = Int64(EventHub.replayPageSize * 2 + 100 + writers * commitsPerWriter * 2)
        #expect(try api.events.latestEventId() == total)
        func stored(_ tenant: String, _ filter: EventFilter = EventFilter(), after: Int64 = 0) throws -> [Int64] {
            try api.events.events(tenantId: tenant, filter: filter, afterId: after, limit: 100_000).map(\.id)
        }
        let expectedAll = try stored(tenants[0].id)
        let expectedRuns = try stored(tenants[0].id, EventFilter(typePrefix: "run."), after: 100)
        let lastOfB = try stored(tenants[1].id).last
        // Publishing threads may return while another thread still delivers: wait for the last events.
        #expect(all.wait(timeout: .seconds(30)) { $0.eventIds.count >= expectedAll.count })
        #expect(runs.wait(timeout: .seconds(30)) { $0.eventIds.count >= expectedRuns.count })
        #expect(liveWriter.wait(timeout: .seconds(30)) { $0.eventIds.last == lastOfB })
        Thread.sleep(forTimeInterval: 0.05)  // anything extra (a repeat) would show up now
        #expect(divergence(all.eventIds, expectedAll) == nil)
        #expect(divergence(runs.eventIds, expectedRuns) == nil)
        #expect(runs.parsed.events.allSatisfy { $0.type?.hasPrefix("run.") == true })
        // The live stream: tenant b's events after it opened, each once, in order, with no hole among them.
        let liveIds = liveWriter.eventIds
        let expectedLive = try stored(tenants[1].id).filter { $0 >= (liveIds.first ?? .max) }
        #expect(!liveIds.isEmpty)
        #expect(divergence(liveIds, expectedLive) == nil)
        #expect(api.hub.subscriberCount == 3)
    }
}

/// Where two id lists first differ (index, received, expected), or nil when they are equal: short failure messages.
func divergence(_ received: [Int64], _ expected: [Int64]) -> (index: Int, received: Int64?, expected: Int64?)? {
    for index in 0..<max(received.count, expected.count) {
        let got = index < received.count ? received[index] : nil
        let want = index < expected.count ? expected[index] : nil
        if got != want { return (index, got, want) }
    }
    return nil
}
