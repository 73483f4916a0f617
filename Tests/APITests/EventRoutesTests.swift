import Emulation
import Foundation
import HTTPServer
import Testing
@testable import API

@Suite struct EventRoutesTests {
    let api: EventTestHarness
    let tenant: (id: String, key: String)
    let phone: String
    let pad: String

    /// A tenant with two devices and seven events: five on the phone, two on the pad.
    init() throws {
        api = try EventTestHarness()
        tenant = try api.makeTenant("acme")
        phone = try api.makeDevice(key: tenant.key, name: "phone")
        pad = try api.makeDevice(key: tenant.key, name: "pad")
        try api.record(
            [
                testEvent("device.created", data: ["name": "phone", "nested": ["list": [1, 2.5, .null]]]),
                testEvent("app.installed", bundleId: "com.mail"),
                testEvent("run.started", bundleId: "com.mail", data: ["taskId": "t1"]),
                testEvent("run.completed", bundleId: "com.mail"),
                testEvent("run_other", bundleId: "com.game"),
            ], deviceId: phone, tenantId: tenant.id)
        try api.record([testEvent("device.created"), testEvent("run.started", bundleId: "com.mail")], deviceId: pad, tenantId: tenant.id)
    }

    private func ids(_ response: TestResponse) -> [Int] { response.items.compactMap { $0["id"] as? Int } }

    @Test func pagesGoOldestFirstWithTheLastIdAsCursor() {
        let first = api.send(.get, "/v1/events?limit=3", key: tenant.key)
        #expect(first.status == 200)
        #expect(first.headers["Content-Type"] == "application/json")
        #expect(ids(first) == [1, 2, 3])
        #expect(first.json["nextCursor"] as? String == "3")
        let second = api.send(.get, "/v1/events?limit=3&cursor=3", key: tenant.key)
        #expect(ids(second) == [4, 5, 6])
        let last = api.send(.get, "/v1/events?limit=3&cursor=6", key: tenant.key)
        #expect(ids(last) == [7])
        #expect(last.json["nextCursor"] is NSNull)
        #expect(ids(api.send(.get, "/v1/events?after=5", key: tenant.key)) == [6, 7])
        #expect(ids(api.send(.get, "/v1/events?after=7", key: tenant.key)).isEmpty)
        #expect(ids(api.send(.get, "/v1/events", key: tenant.key)) == Array(1...7))
    }

    @Test func newestFirstPagesContinueToOlderEventsWithTheOldestIdAsCursor() {
        let first = api.send(.get, "/v1/events?order=desc&limit=3", key: tenant.key)
        #expect(first.status == 200)
        #expect(ids(first) == [7, 6, 5])
        #expect(first.json["nextCursor"] as? String == "5")
        let second = api.send(.get, "/v1/events?order=desc&limit=3&cursor=5", key: tenant.key)
        #expect(ids(second) == [4, 3, 2])
        let last = api.send(.get, "/v1/events?order=desc&limit=3&cursor=2", key: tenant.key)
        #expect(ids(last) == [1])
        #expect(last.json["nextCursor"] is NSNull)
        // A page that ends exactly at the oldest event has no next page.
        let exact = api.send(.get, "/v1/events?order=desc&limit=3&cursor=4", key: tenant.key)
        #expect(ids(exact) == [3, 2, 1])
        #expect(exact.json["nextCursor"] is NSNull)
        let empty = api.send(.get, "/v1/events?order=desc&limit=3&cursor=1", key: tenant.key)
        #expect(empty.status == 200 && ids(empty).isEmpty && empty.json["nextCursor"] is NSNull)
        #expect(ids(api.send(.get, "/v1/events?order=asc", key: tenant.key)) == Array(1...7))
        // An empty `order=` is a value outside the contract's enum, not the default.
        #expect(api.send(.get, "/v1/events?order=", key: tenant.key).status == 422)
    }

    @Test func walkingNewestFirstPageByPageSeesEveryEventOnce() throws {
        try api.record((0..<40).map { testEvent("clock.advanced", bundleId: $0.isMultiple(of: 3) ? "com.mail" : nil) },
                       deviceId: phone, tenantId: tenant.id)
        for path in ["/v1/events", "/v1/devices/\(phone)/events", "/v1/events?bundleId=com.mail&type=clock."] {
            let separator = path.contains("?") ? "&" : "?"
            let everything = ids(api.send(.get, "\(path)\(separator)limit=500", key: tenant.key))
            var walked: [Int] = []
            var cursor: String?
            repeat {
                let page = api.send(
                    .get, "\(path)\(separator)order=desc&limit=7" + (cursor.map { "&cursor=\($0)" } ?? ""), key: tenant.key)
                #expect(page.status == 200)
                walked += ids(page)
                cursor = page.json["nextCursor"] as? String
                #expect(cursor == nil || cursor == walked.last.map(String.init))
            } while cursor != nil
            #expect(walked == everything.reversed(), "\(path)")
            #expect(Set(walked).count == walked.count)
        }
    }

    @Test func newestFirstPagesKeepTheFiltersAndAfterAsALowerBound() {
        #expect(ids(api.send(.get, "/v1/events?order=desc&bundleId=com.mail", key: tenant.key)) == [7, 4, 3, 2])
        #expect(ids(api.send(.get, "/v1/events?order=desc&type=run.&deviceId=\(phone)", key: tenant.key)) == [4, 3])
        #expect(ids(api.send(.get, "/v1/devices/\(pad)/events?order=desc", key: tenant.key)) == [7, 6])
        #expect(ids(api.send(.get, "/v1/events?order=desc&after=4", key: tenant.key)) == [7, 6, 5])
        let between = api.send(.get, "/v1/events?order=desc&after=2&cursor=6&limit=2", key: tenant.key)
        #expect(ids(between) == [5, 4])
        #expect(between.json["nextCursor"] as? String == "4")
        #expect(ids(api.send(.get, "/v1/events?order=desc&after=2&cursor=4", key: tenant.key)) == [3])
        #expect(ids(api.send(.get, "/v1/events?order=desc&after=5&cursor=5", key: tenant.key)).isEmpty)
    }

    @Test func oldestFirstPagesStartAfterTheGreaterOfAfterAndCursor() {
        // A client may keep `after` in its URL and add the cursor of the page it read.
        let first = api.send(.get, "/v1/events?after=2&limit=2", key: tenant.key)
        #expect(ids(first) == [3, 4])
        let next = api.send(.get, "/v1/events?after=2&limit=2&cursor=\(first.json["nextCursor"] as? String ?? "")", key: tenant.key)
        #expect(next.status == 200 && ids(next) == [5, 6])
        #expect(ids(api.send(.get, "/v1/events?after=5&cursor=2", key: tenant.key)) == [6, 7])
        #expect(ids(api.send(.get, "/v1/events?after=&cursor=", key: tenant.key)) == Array(1...7))
    }

    @Test func anEventOnTheWireHasItsFields() throws {
        let page = api.send(.get, "/v1/events?limit=3", key: tenant.key)
        let created = try #require(page.items.first)
        #expect(Set(created.keys) == ["id", "type", "deviceId", "bundleId", "at", "recordedAt", "data"])
        #expect(created["type"] as? String == "device.created")
        #expect(created["deviceId"] as? String == phone)
        #expect(created["bundleId"] is NSNull)
        #expect(created["at"] as? String == "2026-01-01T00:00:00.000Z")
        let recordedAt = try #require(created["recordedAt"] as? String)
        #expect(RFC3339.parse(recordedAt) != nil && recordedAt.hasSuffix("Z"))
        let data = try #require(created["data"] as? [String: Any])
        #expect(data["name"] as? String == "phone")
        #expect((data["nested"] as? [String: Any])?["list"] as? [Any] != nil)
        #expect(page.items[1]["bundleId"] as? String == "com.mail")
        // Keys are sorted, as in every answer.
        #expect(page.text.hasPrefix(#"{"items":[{"at":"#))
    }

    @Test func filtersNarrowTheList() {
        #expect(ids(api.send(.get, "/v1/events?deviceId=\(pad)", key: tenant.key)) == [6, 7])
        #expect(ids(api.send(.get, "/v1/events?bundleId=com.mail", key: tenant.key)) == [2, 3, 4, 7])
        #expect(ids(api.send(.get, "/v1/events?type=run.", key: tenant.key)) == [3, 4, 7])
        #expect(ids(api.send(.get, "/v1/events?type=run_", key: tenant.key)) == [5])  // `_` is no wildcard
        #expect(ids(api.send(.get, "/v1/events?type=run.&deviceId=\(phone)&bundleId=com.mail", key: tenant.key)) == [3, 4])
        #expect(ids(api.send(.get, "/v1/events?type=&bundleId=", key: tenant.key)).count == 7)
    }

    @Test func aRunsEventsAreListedAndStreamedByRunIdOnItsDevice() throws {
        // Run ids are unique on their device only: the pad has a run_1 too.
        try api.record(
            [testEvent("run.started", bundleId: "com.mail", data: ["runId": "run_1"]),
             testEvent("run.expiring", bundleId: "com.mail", data: ["runId": "run_1", "reason": "deadline"]),
             testEvent("run.started", bundleId: "com.mail", data: ["runId": "run_2"])],
            deviceId: phone, tenantId: tenant.id)   // 8, 9, 10
        try api.record([testEvent("run.started", bundleId: "com.mail", data: ["runId": "run_1"])],
                       deviceId: pad, tenantId: tenant.id)   // 11
        #expect(ids(api.send(.get, "/v1/devices/\(phone)/events?runId=run_1", key: tenant.key)) == [8, 9])
        #expect(ids(api.send(.get, "/v1/devices/\(phone)/events?runId=run_1&order=desc", key: tenant.key)) == [9, 8])
        #expect(ids(api.send(.get, "/v1/events?deviceId=\(pad)&runId=run_1", key: tenant.key)) == [11])
        #expect(ids(api.send(.get, "/v1/devices/\(phone)/events?runId=run_1&type=run.exp", key: tenant.key)) == [9])
        #expect(ids(api.send(.get, "/v1/devices/\(phone)/events?runId=", key: tenant.key)).count == 8)  // empty: no filter
        let withoutDevice = api.send(.get, "/v1/events?runId=run_1", key: tenant.key)
        #expect(withoutDevice.status == 422 && withoutDevice.errorFields == ["runId"])

        let (response, writer) = api.openStream("/v1/devices/\(phone)/events?runId=run_2", key: tenant.key)
        #expect(response.status == .ok)
        try api.record(
            [testEvent("run.completed", bundleId: "com.mail", data: ["runId": "run_1"]),
             testEvent("run.completed", bundleId: "com.mail", data: ["runId": "run_2"])],
            deviceId: phone, tenantId: tenant.id)   // 12, 13
        try api.record([testEvent("run.completed", bundleId: "com.mail", data: ["runId": "run_2"])],
                       deviceId: pad, tenantId: tenant.id)   // 14
        #expect(writer.wait { $0.eventIds == [13] })
        let resumed = api.openStream(
            "/v1/devices/\(phone)/events?runId=run_2", key: tenant.key, headers: ["Last-Event-ID": "0"])
        #expect(resumed.writer.wait { $0.eventIds == [10, 13] })
    }

    @Test func aDevicesOwnRouteIsScopedAndKnowsItsDevices() throws {
        #expect(ids(api.send(.get, "/v1/devices/\(pad)/events", key: tenant.key)) == [6, 7])
        #expect(ids(api.send(.get, "/v1/devices/\(phone)/events?type=run.&limit=1", key: tenant.key)) == [3])
        let unknown = api.send(.get, "/v1/devices/dev_nope/events", key: tenant.key)
        #expect(unknown.status == 404 && unknown.problemCode == "notFound")
        let other = try api.makeTenant("other")
        let foreign = api.send(.get, "/v1/devices/\(phone)/events", key: other.key)
        #expect(foreign.status == 404)
        let foreignStream = api.openStream("/v1/devices/\(phone)/events", key: other.key)
        #expect(foreignStream.response.status == .notFound)
        let contradiction = api.send(.get, "/v1/devices/\(pad)/events?deviceId=\(phone)", key: tenant.key)
        #expect(contradiction.status == 422 && contradiction.errorFields == ["deviceId"])
        // A deleted device's route is gone; its events stay in the tenant's log.
        #expect(api.send(.delete, "/v1/devices/\(pad)", key: tenant.key).status == 204)
        #expect(api.send(.get, "/v1/devices/\(pad)/events", key: tenant.key).status == 404)
        #expect(ids(api.send(.get, "/v1/events?deviceId=\(pad)", key: tenant.key)) == [6, 7])
    }

    @Test func tenantsSeeOnlyTheirOwnEvents() throws {
        let other = try api.makeTenant("other")
        let device = try api.makeDevice(key: other.key)
        try api.record([testEvent("device.created")], deviceId: device, tenantId: other.id)
        #expect(ids(api.send(.get, "/v1/events", key: other.key)) == [8])
        #expect(ids(api.send(.get, "/v1/events?deviceId=\(phone)", key: other.key)).isEmpty)
        #expect(ids(api.send(.get, "/v1/events?after=7", key: tenant.key)).isEmpty)
    }

    @Test(arguments: [
        ("limit=0", "limit"), ("limit=501", "limit"), ("after=x", "after"), ("after=-1", "after"), ("cursor=1.5", "cursor"),
        ("after=99999999999999999999", "after"), ("after=1000000000000000000", "after"), ("order=DESC", "order"),
        ("order=newest", "order"), ("order=", "order"),
        ("order=desc&cursor=x", "cursor"), ("order=desc&after=-1", "after"),
    ])
    func invalidPagingIs422NamingTheParameter(_ query: String, _ field: String) {
        let response = api.send(.get, "/v1/events?\(query)", key: tenant.key)
        #expect(response.status == 422)
        #expect(response.errorFields == [field])
    }

    @Test func eventsNeedAKeyButStreamsMayPassItInTheQuery() {
        #expect(api.send(.get, "/v1/events").status == 401)
        let query = api.openStream("/v1/events?access_token=\(tenant.key)&lastEventId=5", key: nil)
        #expect(query.response.status == .ok)
        #expect(query.writer.wait { $0.eventIds == [6, 7] })
        #expect(api.send(.get, "/v1/events?access_token=\(tenant.key)").status == 200)
        #expect(api.send(.get, "/v1/events?access_token=wrong").status == 401)
    }

    @Test func acceptingAnEventStreamOpensOneThatResumesAfterLastEventId() throws {
        let (response, writer) = api.openStream("/v1/events?type=run.", key: tenant.key, headers: ["Last-Event-ID": "3"])
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/event-stream")
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["X-Accel-Buffering"] == "no")
        #expect(writer.wait { $0.eventIds == [4, 7] })
        #expect(writer.text.hasPrefix("retry: 2000\n\n"))
        let stream = writer.parsed
        #expect(stream.events.map(\.type) == ["run.completed", "run.started"])
        #expect(stream.bodies.map { $0["deviceId"] as? String } == [phone, pad])

        try api.record([testEvent("run.expired"), testEvent("app.stateChanged")], deviceId: pad, tenantId: tenant.id)
        #expect(writer.wait { $0.eventIds == [4, 7, 8] })
        // The same body as the JSON list.
        let listed = try #require(api.send(.get, "/v1/events?after=7", key: tenant.key).items.first)
        let streamed = try #require(writer.parsed.bodies.last)
        #expect(NSDictionary(dictionary: listed).isEqual(to: streamed))
    }

    @Test func withoutLastEventIdAStreamStartsWithLiveEvents() throws {
        let (_, writer) = api.openStream("/v1/devices/\(phone)/events", key: tenant.key)
        try api.record([testEvent("clock.advanced")], deviceId: pad, tenantId: tenant.id)
        try api.record([testEvent("clock.advanced")], deviceId: phone, tenantId: tenant.id)
        #expect(writer.wait { $0.eventIds == [9] })
        // The query spelling resumes too, for clients that cannot set headers.
        let (_, resumed) = api.openStream("/v1/devices/\(phone)/events?lastEventId=4", key: tenant.key)
        #expect(resumed.wait { $0.eventIds == [5, 9] })
    }

    @Test func anEmptyLastEventIdMeansLiveEventsOnly() throws {
        let header = api.openStream("/v1/events", key: tenant.key, headers: ["Last-Event-ID": ""])
        let query = api.openStream("/v1/events?lastEventId=", key: tenant.key)
        #expect(header.response.status == .ok && query.response.status == .ok)
        try api.record([testEvent("clock.advanced")], deviceId: pad, tenantId: tenant.id)
        #expect(header.writer.wait { $0.eventIds == [8] })
        #expect(query.writer.wait { $0.eventIds == [8] })
    }

    // Ids are at most 18 digits, as the contract's pattern says (a 19-digit number is refused even if it fits).
    @Test(arguments: ["abc", "-1", "1.0", "12a", "99999999999999999999", "1000000000000000000"])
    func aLastEventIdThatIsNoEventIdIs400(_ value: String) {
        let header = api.openStream("/v1/events", key: tenant.key, headers: ["Last-Event-ID": value])
        #expect(header.response.status == .badRequest)
        #expect(TestResponse(header.response).problemCode == "malformedRequest")
        let query = api.openStream("/v1/events?lastEventId=\(value)", key: tenant.key)
        #expect(query.response.status == .badRequest)
        // The header wins when both are sent, but a query that is no event id is still refused, not ignored.
        let both = api.openStream("/v1/events?lastEventId=\(value)", key: tenant.key, headers: ["Last-Event-ID": "3"])
        #expect(both.response.status == .badRequest)
    }

    @Test func jsonIsTheAnswerUnlessTheEventStreamIsPreferred() {
        let wildcard = api.send(.get, "/v1/events", key: tenant.key, headers: ["Accept": "*/*"])
        #expect(wildcard.headers["Content-Type"] == "application/json")
        let preferJSON = api.send(
            .get, "/v1/events", key: tenant.key, headers: ["Accept": "text/event-stream;q=0.5, application/json"])
        #expect(preferJSON.headers["Content-Type"] == "application/json")
        // In a JSON answer a Last-Event-ID means nothing (pages go by cursor or after), but it must still be one.
        let page = api.send(.get, "/v1/events", key: tenant.key, headers: ["Last-Event-ID": "3"])
        #expect(page.status == 200 && ids(page).count == 7)
        #expect(api.send(.get, "/v1/events", key: tenant.key, headers: ["Last-Event-ID": "abc"]).status == 400)
    }
}
