import Emulation
import Foundation
import HTTPServer
import Logging
import Service
import Testing
@testable import API
import Stores

/// Transient events (`forecast.progress`): sent to the tenant's live streams that take every event, without an
/// `id:` line, in order, after the committed events published before them, never replayed.
@Suite struct TransientEventTests {
    let store = MemoryEventStore()

    private func open(_ hub: EventHub, tenant: String, filter: EventFilter = EventFilter(), after lastEventId: Int64? = nil)
        -> RecordingStreamWriter
    {
        let writer = RecordingStreamWriter()
        let response = hub.stream(tenantId: tenant, filter: filter, lastEventId: lastEventId)
        guard case .stream(let stream) = response.body else { Issue.record("not a stream"); return writer }
        stream.start(writer)
        return writer
    }

    private func progress(_ tenant: String, _ share: Double, _ state: ForecastState = .running) -> ForecastProgress {
        ForecastProgress(tenantId: tenant, forecastId: "fc_1", state: state, progress: share)
    }

    @Test func forecastProgressHasNoId_andFollowsTheEventsPublishedBeforeIt_inOrder() {
        let hub = EventHub(store: store, logger: Logger(label: "test.transient"))
        let stream = open(hub, tenant: "t")
        hub.publish(store.record(tenantId: "t", deviceId: "dev", [testEvent("device.created")]))
        hub.publish(forecastProgress: progress("t", 0.5))
        hub.publish(forecastProgress: progress("t", 0.51))
        hub.publish(forecastProgress: progress("t", 1, .done))
        #expect(stream.wait { $0.parsed.events.count == 4 })
        let events = stream.parsed.events
        #expect(events.map(\.type) == ["device.created", "forecast.progress", "forecast.progress", "forecast.progress"])
        #expect(events.map { $0.id == nil } == [false, true, true, true], "only stored events have ids")
        #expect(events[1].data == #"{"forecastId":"fc_1","progress":0.5,"state":"running"}"#)
        #expect(events[2].data == #"{"forecastId":"fc_1","progress":0.51,"state":"running"}"#)
        #expect(events[3].data == #"{"forecastId":"fc_1","progress":1,"state":"done"}"#)
    }

    @Test func onlyTheTenantsStreamsThatTakeEveryEventGetIt() {
        let hub = EventHub(store: store, logger: Logger(label: "test.transient"))
        let all = open(hub, tenant: "t")
        let forecasts = open(hub, tenant: "t", filter: EventFilter(typePrefix: "forecast."))
        let devicesOnly = open(hub, tenant: "t", filter: EventFilter(typePrefix: "device."))
        let oneDevice = open(hub, tenant: "t", filter: EventFilter(deviceId: "dev"))
        let otherTenant = open(hub, tenant: "u")
        hub.publish(forecastProgress: progress("t", 0.25))
        // A committed event after it, seen by every stream of "t": the transient one was delivered before it.
        hub.publish(store.record(tenantId: "t", deviceId: "dev", [testEvent("device.created")]))
        #expect(oneDevice.wait { $0.parsed.events.count == 1 })
        #expect(all.wait { $0.parsed.events.count == 2 })
        #expect(all.parsed.events.first?.type == "forecast.progress")
        #expect(forecasts.wait { $0.parsed.events.count == 1 } && forecasts.parsed.events.first?.type == "forecast.progress")
        #expect(devicesOnly.wait { $0.parsed.events.count == 1 })
        #expect(devicesOnly.parsed.events.map(\.type) == ["device.created"])
        #expect(oneDevice.parsed.events.map(\.type) == ["device.created"])
        #expect(otherTenant.parsed.events.isEmpty)
    }

    @Test func aStreamResumingFromTheLogGetsNoTransientEvent() {
        let hub = EventHub(store: store, logger: Logger(label: "test.transient"))
        let live = open(hub, tenant: "t")
        hub.publish(forecastProgress: progress("t", 0.5))
        hub.publish(store.record(tenantId: "t", deviceId: "dev", [testEvent("device.created")]))
        #expect(live.wait { $0.parsed.events.count == 2 })
        let resumed = open(hub, tenant: "t", after: 0)
        #expect(resumed.wait { $0.parsed.events.count == 1 })
        #expect(resumed.parsed.events.map(\.type) == ["device.created"])
    }
}
