import Emulation
import Foundation
import HTTPServer
import Logging
import Testing
@testable import API
import Stores

/// The hub driven directly, with an in-memory log and recording writers.
@Suite struct EventHubTests {
    let store = MemoryEventStore()

    private func hub(_ store: any EventStore, gapTimeout: Duration = .seconds(1), heartbeat: Duration = .seconds(15)) -> EventHub {
        EventHub(store: store, heartbeatInterval: heartbeat, retryMilliseconds: 1500, gapTimeout: gapTimeout,
                 logger: Logger(label: "test.hub"))
    }

    /// Opens a stream through the hub's response, as the server starts it.
    private func open(_ hub: EventHub, tenant: String, filter: EventFilter = EventFilter(), after lastEventId: Int64? = nil,
                      writer: RecordingStreamWriter = RecordingStreamWriter()) -> RecordingStreamWriter {
        let response = hub.stream(tenantId: tenant, filter: filter, lastEventId: lastEventId)
        guard case .stream(let stream) = response.body else { Issue.record("not a stream"); return writer }
        stream.start(writer)
        return writer
    }

    /// Records and publishes `count` events of a tenant.
    @discardableResult
    private func commit(_ hub: EventHub, tenant: String, device: String = "dev", _ types: [String]) -> [RecordedEvent] {
        let recorded = store.record(tenantId: tenant, deviceId: device, types.map { testEvent($0) })
        hub.publish(recorded)
        return recorded
    }

    @Test func streamResponseHasTheStreamHeaders() {
        let response = hub(store).stream(tenantId: "t", filter: EventFilter(), lastEventId: nil)
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/event-stream")
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["X-Accel-Buffering"] == "no")
    }

    @Test func withoutLastEventIdOnlyLiveEventsComeAfterRetry() throws {
        let hub = hub(store)
        commit(hub, tenant: "a", ["old.1", "old.2"])
        let writer = open(hub, tenant: "a")
        #expect(writer.text.hasPrefix("retry: 1500\n\n"))
        #expect(writer.parsed.fieldOnlyBlocks.first?.retry == "1500")
        commit(hub, tenant: "a", ["new.1"])
        #expect(writer.wait { $0.eventIds == [3] })
        let event = try #require(writer.parsed.events.first)
        #expect(event.type == "new.1" && event.id == "3")
        #expect(writer.parsed.bodies.first?["deviceId"] as? String == "dev")
    }

    @Test func resumingReplaysWhatWasMissedThenGoesLive() {
        let hub = hub(store)
        commit(hub, tenant: "a", ["e.1", "e.2", "e.3", "e.4", "e.5"])
        let writer = open(hub, tenant: "a", after: 2)
        #expect(writer.wait { $0.eventIds == [3, 4, 5] })
        commit(hub, tenant: "a", ["e.6"])
        #expect(writer.wait { $0.eventIds == [3, 4, 5, 6] })
        #expect(hub.subscriberCount == 1)
    }

    @Test func eventsCommittedWhileTheReplayReadsAreNeitherLostNorRepeated() {
        let gated = GatedEventStore(store)
        let hub = hub(gated)
        commit(hub, tenant: "a", ["e.1", "e.2"])
        let writer = open(hub, tenant: "a", after: 0)
        #expect(RecordingStreamWriter().wait { _ in gated.readCount == 1 })  // the replay is held at its first read
        // Committed and published while the replay waits: buffered live, and also in the store the replay reads.
        commit(hub, tenant: "a", ["e.3", "e.4"])
        gated.open()
        #expect(writer.wait { $0.eventIds.count >= 4 })
        commit(hub, tenant: "a", ["e.5"])
        #expect(writer.wait { $0.eventIds.count >= 5 })
        #expect(writer.eventIds == [1, 2, 3, 4, 5])
    }

    @Test func liveEventsOverflowingTheReplayBufferAreReplayedAgain() {
        let gated = GatedEventStore(store)
        let hub = hub(gated)
        commit(hub, tenant: "a", ["e.0"])
        let writer = open(hub, tenant: "a", after: 0)
        #expect(RecordingStreamWriter().wait { _ in gated.readCount == 1 })
        let burst = EventSubscriber.bufferLimit + 700
        for n in 0..<burst { commit(hub, tenant: "a", ["burst.\(n)"]) }
        gated.open()
        let total = burst + 1
        #expect(writer.wait { $0.eventIds.count >= total })
        commit(hub, tenant: "a", ["after"])
        #expect(writer.wait { $0.eventIds.count >= total + 1 })
        #expect(writer.eventIds == Array(1...Int64(total + 1)))
    }

    @Test func outOfOrderPublishesReachStreamsInOrder() {
        let hub = hub(store)
        let writer = open(hub, tenant: "a")
        let first = store.record(tenantId: "a", deviceId: "d", [testEvent("one")])
        let second = store.record(tenantId: "a", deviceId: "d", [testEvent("two"), testEvent("three")])
        hub.publish(second)
        #expect(writer.eventIds.isEmpty)
        hub.publish(first)
        #expect(writer.wait { $0.eventIds == [1, 2, 3] })
    }

    @Test func anIdNeverPublishedHoldsLaterEventsOnlyForTheGapTimeout() {
        let hub = hub(store, gapTimeout: .milliseconds(200))
        let writer = open(hub, tenant: "a")
        commit(hub, tenant: "a", ["one"])
        let lost = store.record(tenantId: "a", deviceId: "d", [testEvent("never published")])
        commit(hub, tenant: "a", ["three"])
        #expect(writer.wait { $0.eventIds == [1] })
        #expect(writer.eventIds == [1])  // 3 waits for 2
        #expect(writer.wait { $0.eventIds == [1, 3] })
        hub.publish(lost)  // too late for live streams: dropped, not sent out of order
        commit(hub, tenant: "a", ["four"])
        #expect(writer.wait { $0.eventIds == [1, 3, 4] })
        // It is in the store: a client resuming from before it gets it.
        let resumed = open(hub, tenant: "a", after: 1)
        #expect(resumed.wait { $0.eventIds == [2, 3, 4] })
    }

    @Test func streamsSeeOnlyTheirTenantsEventsThatPassTheirFilter() {
        let hub = hub(store)
        let a = open(hub, tenant: "a")
        let b = open(hub, tenant: "b")
        let runs = open(hub, tenant: "a", filter: EventFilter(typePrefix: "run."))
        let phone = open(hub, tenant: "a", filter: EventFilter(deviceId: "phone", bundleId: "com.mail"))
        hub.publish(store.record(tenantId: "a", deviceId: "phone", [testEvent("run.started", bundleId: "com.mail")]))
        hub.publish(store.record(tenantId: "b", deviceId: "pad", [testEvent("run.started")]))
        hub.publish(store.record(tenantId: "a", deviceId: "pad", [testEvent("app.stateChanged", bundleId: "com.mail")]))
        hub.publish(store.record(tenantId: "a", deviceId: "phone", [testEvent("runaway"), testEvent("run.ended")]))
        #expect(a.wait { $0.eventIds == [1, 3, 4, 5] })
        #expect(b.wait { $0.eventIds == [2] })
        #expect(runs.wait { $0.eventIds == [1, 5] })
        #expect(phone.wait { $0.eventIds == [1] })
        // Replays are scoped the same way.
        let replayedB = open(hub, tenant: "b", after: 0)
        #expect(replayedB.wait { $0.eventIds == [2] })
        #expect(a.parsed.bodies.allSatisfy { ($0["deviceId"] as? String) != "pad" || ($0["id"] as? Int) == 3 })
    }

    @Test func aSlowClientIsDroppedWithoutHoldingUpTheOthers() {
        let hub = hub(store)
        let slow = open(hub, tenant: "a", writer: RecordingStreamWriter(acceptingWrites: 2))  // retry, then one event
        let fast = open(hub, tenant: "a")
        #expect(hub.subscriberCount == 2)
        for n in 1...5 { commit(hub, tenant: "a", ["e.\(n)"]) }
        #expect(fast.wait { $0.eventIds == [1, 2, 3, 4, 5] })
        #expect(slow.eventIds == [1])
        #expect(!slow.isOpen)
        #expect(hub.subscriberCount == 1)
    }

    @Test func aClientThatGoesAwayIsForgotten() {
        let hub = hub(store)
        let writer = open(hub, tenant: "a")
        let replaying = open(hub, tenant: "a", after: 0)
        #expect(hub.subscriberCount == 2)
        writer.disconnect()
        replaying.disconnect()
        #expect(hub.subscriberCount == 0)
        commit(hub, tenant: "a", ["e"])
        #expect(writer.eventIds.isEmpty)
    }

    @Test func aFailingReplayFinishesTheStreamSoTheClientRetries() {
        let gated = GatedEventStore(store)
        let hub = hub(gated)
        gated.fail()
        gated.open()
        let writer = open(hub, tenant: "a", after: 0)
        #expect(writer.wait { $0.isFinished })
        // The stream is finished before its subscriber is dropped (on the replaying thread), so this may lag.
        #expect(writer.wait { _ in hub.subscriberCount == 0 })
    }

    @Test func heartbeatsReachEveryStreamAndStopFinishesThem() {
        let hub = hub(store, heartbeat: .milliseconds(20))
        let a = open(hub, tenant: "a")
        let b = open(hub, tenant: "b", after: 0)
        hub.heartbeat()
        #expect(a.parsed.comments == ["heartbeat"])
        #expect(b.wait { $0.parsed.comments == ["heartbeat"] })
        hub.start()
        hub.start()  // idempotent
        #expect(a.wait { $0.parsed.comments.count >= 3 })
        #expect(a.parsed.events.isEmpty)  // comments dispatch nothing

        hub.stop()
        #expect(a.isFinished && b.isFinished)
        #expect(hub.subscriberCount == 0)
        let late = open(hub, tenant: "a")
        #expect(late.isFinished)
        let comments = a.parsed.comments.count
        Thread.sleep(forTimeInterval: 0.1)
        #expect(a.parsed.comments.count == comments)
    }
}
