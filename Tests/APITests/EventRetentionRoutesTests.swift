import Emulation
import Foundation
import HTTPServer
import Storage
import Testing
@testable import API

/// Issue 12 §2, event retention: a page or a resume from before the retained range is `410 eventsPruned` with the
/// oldest id still held, never a silent gap; one after it, or a first page, is answered as before.
@Suite struct EventRetentionRoutesTests {
    let api: EventTestHarness
    let tenant: (id: String, key: String)
    let phone: String
    let pad: String

    /// Phone: events 1–6, 9, 10; pad: 7, 8. The retention keeps 3 per device: the phone's 1–5 are pruned.
    init() throws {
        api = try EventTestHarness()
        tenant = try api.makeTenant("acme")
        phone = try api.makeDevice(key: tenant.key, name: "phone")
        pad = try api.makeDevice(key: tenant.key, name: "pad")
        try api.record((1...6).map { _ in testEvent("clock.advanced") }, deviceId: phone, tenantId: tenant.id)
        try api.record([testEvent("clock.advanced"), testEvent("run.started")], deviceId: pad, tenantId: tenant.id)
        try api.record([testEvent("run.started"), testEvent("clock.advanced")], deviceId: phone, tenantId: tenant.id)
        let report = try EventPruner(
            database: api.database, retention: EventRetention(maximumPerDevice: 3), minimumPause: .zero
        ).prune()
        #expect(report.events == 5)
    }

    private func ids(_ response: TestResponse) -> [Int] { response.items.compactMap { $0["id"] as? Int } }

    /// The problem's members, checked; answers its `oldestEventId`.
    @discardableResult
    private func expectPruned(
        _ response: TestResponse, lastPruned: Int, oldest: Int?, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int? {
        #expect(response.status == 410, sourceLocation: sourceLocation)
        #expect(response.headers["Content-Type"] == "application/problem+json", sourceLocation: sourceLocation)
        #expect(response.problemCode == "eventsPruned", sourceLocation: sourceLocation)
        #expect(response.json["type"] as? String == "urn:bgemu:problem:eventsPruned", sourceLocation: sourceLocation)
        #expect(response.json["status"] as? Int == 410, sourceLocation: sourceLocation)
        #expect(response.json["title"] as? String == "Gone", sourceLocation: sourceLocation)
        #expect(response.json["lastPrunedEventId"] as? Int == lastPruned, sourceLocation: sourceLocation)
        #expect(response.json["oldestEventId"] as? Int == oldest, sourceLocation: sourceLocation)
        #expect((response.json["detail"] as? String)?.contains("\(lastPruned)") == true, sourceLocation: sourceLocation)
        return response.json["oldestEventId"] as? Int
    }

    @Test func eventsPruned_aPageAfterAPrunedIdIsGoneWithTheOldestHeldId() throws {
        let device = "/v1/devices/\(phone)/events"
        expectPruned(api.send(.get, "\(device)?after=2", key: tenant.key), lastPruned: 5, oldest: 6)
        expectPruned(api.send(.get, "\(device)?after=0", key: tenant.key), lastPruned: 5, oldest: 6)
        expectPruned(api.send(.get, "\(device)?cursor=4&limit=2", key: tenant.key), lastPruned: 5, oldest: 6)
        expectPruned(api.send(.get, "\(device)?order=desc&after=1", key: tenant.key), lastPruned: 5, oldest: 6)
        // From the ids the problem names, the client continues without a gap.
        #expect(ids(api.send(.get, "\(device)?after=5", key: tenant.key)) == [6, 9, 10])
        #expect(ids(api.send(.get, "\(device)?after=6", key: tenant.key)) == [9, 10])
        // A first page lists what is held, oldest or newest first; newest first, a cursor ends at the oldest held.
        #expect(ids(api.send(.get, device, key: tenant.key)) == [6, 9, 10])
        let newest = api.send(.get, "\(device)?order=desc&limit=2", key: tenant.key)
        #expect(ids(newest) == [10, 9])
        let older = api.send(.get, "\(device)?order=desc&limit=2&cursor=9", key: tenant.key)
        #expect(ids(older) == [6])
        #expect(older.json["nextCursor"] is NSNull)
    }

    @Test func eventsPruned_theTenantWideListIsGoneBeforeTheGreatestPrunedIdOfItsDevices() throws {
        expectPruned(api.send(.get, "/v1/events?after=4", key: tenant.key), lastPruned: 5, oldest: 6)
        expectPruned(api.send(.get, "/v1/events?after=3&type=run.", key: tenant.key), lastPruned: 5, oldest: 6)
        #expect(ids(api.send(.get, "/v1/events?after=5", key: tenant.key)) == [6, 7, 8, 9, 10])
        // Narrowed to a device, the device's own range counts: nothing of the pad was pruned.
        #expect(ids(api.send(.get, "/v1/events?deviceId=\(pad)&after=0", key: tenant.key)) == [7, 8])
        #expect(ids(api.send(.get, "/v1/devices/\(pad)/events?after=0", key: tenant.key)) == [7, 8])
        expectPruned(api.send(.get, "/v1/events?deviceId=\(phone)&after=0", key: tenant.key), lastPruned: 5, oldest: 6)
        // Another tenant never had anything pruned.
        let other = try api.makeTenant("other")
        #expect(api.send(.get, "/v1/events?after=0", key: other.key).status == 200)
    }

    @Test func eventsPruned_aStreamResumingBeforeTheRetainedRangeIsGoneBeforeItStarts() throws {
        let header = api.openStream("/v1/devices/\(phone)/events", key: tenant.key, headers: ["Last-Event-ID": "3"])
        expectPruned(TestResponse(header.response), lastPruned: 5, oldest: 6)
        let query = api.openStream("/v1/devices/\(phone)/events?lastEventId=0", key: tenant.key)
        expectPruned(TestResponse(query.response), lastPruned: 5, oldest: 6)
        let tenantWide = api.openStream("/v1/events", key: tenant.key, headers: ["Last-Event-ID": "5"])
        #expect(tenantWide.response.status == .ok)
        #expect(tenantWide.writer.wait { $0.eventIds == [6, 7, 8, 9, 10] })
        expectPruned(
            TestResponse(api.openStream("/v1/events", key: tenant.key, headers: ["Last-Event-ID": "4"]).response),
            lastPruned: 5, oldest: 6)
        // Resumed after the last pruned id, as the problem says: every held event, then live ones.
        let resumed = api.openStream("/v1/devices/\(phone)/events", key: tenant.key, headers: ["Last-Event-ID": "5"])
        #expect(resumed.response.status == .ok)
        #expect(resumed.writer.wait { $0.eventIds == [6, 9, 10] })
        try api.record([testEvent("clock.advanced")], deviceId: phone, tenantId: tenant.id)
        #expect(resumed.writer.wait { $0.eventIds == [6, 9, 10, 11] })
        // No Last-Event-ID: live events only, never a 410.
        #expect(api.openStream("/v1/devices/\(phone)/events", key: tenant.key).response.status == .ok)
    }

    @Test func eventsPruned_aResumeFromZeroOnADeviceWithNothingPrunedIsNotGone() throws {
        let fresh = try api.makeDevice(key: tenant.key, name: "fresh")
        let (response, writer) = api.openStream("/v1/devices/\(fresh)/events", key: tenant.key, headers: ["Last-Event-ID": "0"])
        #expect(response.status == .ok)
        try api.record([testEvent("device.created")], deviceId: fresh, tenantId: tenant.id)
        #expect(writer.wait { $0.eventIds == [11] })
        #expect(ids(api.send(.get, "/v1/devices/\(fresh)/events?after=0", key: tenant.key)) == [11])
        let pad = api.openStream("/v1/devices/\(pad)/events", key: tenant.key, headers: ["Last-Event-ID": "0"])
        #expect(pad.writer.wait { $0.eventIds == [7, 8] })
    }

    @Test func eventsPruned_whenNothingIsHeldTheProblemHasNoOldestId() throws {
        let far = Date().addingTimeInterval(400 * 86_400)
        try EventPruner(
            database: api.database, retention: EventRetention(days: 1, perDevice: 0), minimumPause: .zero, now: { far }
        ).prune()
        let page = api.send(.get, "/v1/devices/\(phone)/events?after=6", key: tenant.key)
        expectPruned(page, lastPruned: 10, oldest: nil)
        #expect(page.json.keys.contains("oldestEventId") == false)
        #expect(ids(api.send(.get, "/v1/devices/\(phone)/events?after=10", key: tenant.key)).isEmpty)
        expectPruned(api.send(.get, "/v1/events?after=9", key: tenant.key), lastPruned: 10, oldest: nil)
    }
}
