import Foundation
import HTTPServer
import Synchronization
import Testing
import Storage
@testable import API
@testable import Service

/// `Idempotency-Key` on `POST`, in-process: replay, reuse, in flight, bad keys, tenants, expiry.
@Suite struct IdempotencyTests {
    let api: APIHarness
    let tenant: (id: String, key: String)
    let device: String

    init() throws {
        api = try APIHarness()
        tenant = try api.makeTenant("acme")
        device = try api.makeDevice(key: tenant.key)
    }

    var advancePath: String { "/v1/devices/\(device)/clock/advance" }

    func post(_ path: String, json: String, idempotencyKey: String?, key: String? = nil) -> TestResponse {
        var headers = HTTPHeaders()
        if let idempotencyKey { headers["Idempotency-Key"] = idempotencyKey }
        return api.send(.post, path, key: key ?? tenant.key, json: json, headers: headers)
    }

    func eventCount(_ deviceId: String) throws -> Int {
        try api.database.read { try $0.scalar("SELECT count(*) FROM events WHERE device_id = ?", [deviceId], as: Int.self) } ?? 0
    }

    @Test func retryReplaysTheStoredAnswerByteForByteAndWritesNothing() throws {
        let first = post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: "advance-1")
        #expect(first.status == 200)
        #expect(first.headers["Idempotent-Replayed"] == nil)
        let events = try eventCount(device)
        let retry = post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: "advance-1")
        #expect(retry.status == 200)
        #expect(retry.body == first.body)
        #expect(retry.headers["Content-Type"] == first.headers["Content-Type"])
        #expect(retry.headers["Idempotent-Replayed"] == "true")
        #expect(try eventCount(device) == events)  // no second clock.advanced
        let clock = api.send(.get, "/v1/devices/\(device)/clock", key: tenant.key)
        #expect(clock.json["now"] as? String == "2026-01-01T00:01:00.000Z")  // advanced once
    }

    @Test func deviceCreationIsNotDoubled() throws {
        let body = #"{"name":"Retry iPhone"}"#
        let first = post("/v1/devices", json: body, idempotencyKey: "create-1")
        let retry = post("/v1/devices", json: body, idempotencyKey: "create-1")
        #expect(first.status == 201 && retry.status == 201)
        #expect(retry.body == first.body && retry.headers["Location"] == first.headers["Location"])
        #expect(api.send(.get, "/v1/devices", key: tenant.key).items.count == 2)  // the setup's and this one
    }

    @Test func answersOf4xxAreStoredAndReplayed() throws {
        let missing = "/v1/devices/dev_missing/clock/advance"
        let first = post(missing, json: #"{"seconds":1}"#, idempotencyKey: "k404")
        #expect(first.status == 404)
        let retry = post(missing, json: #"{"seconds":1}"#, idempotencyKey: "k404")
        #expect(retry.status == 404 && retry.body == first.body && retry.headers["Idempotent-Replayed"] == "true")
    }

    @Test func sameKeyWithAnotherBodyOrPathIs422() throws {
        #expect(post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: "k").status == 200)
        let events = try eventCount(device)
        let otherBody = post(advancePath, json: #"{"seconds":61}"#, idempotencyKey: "k")
        #expect(otherBody.status == 422 && otherBody.problemCode == "idempotencyKeyReused")
        let otherPath = post("/v1/devices/\(device)/reboot", json: "{}", idempotencyKey: "k")
        #expect(otherPath.status == 422 && otherPath.problemCode == "idempotencyKeyReused")
        #expect(try eventCount(device) == events)
    }

    @Test func retryWhileTheFirstIsInFlightIs409() throws {
        // A first request holding the key (handlers run synchronously, so holding it is what "in flight" is).
        #expect(api.idempotency.inFlight.claim(tenantId: tenant.id, key: "busy"))
        let events = try eventCount(device)
        let retry = post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: "busy")
        #expect(retry.status == 409 && retry.problemCode == "idempotencyKeyInFlight")
        #expect(try eventCount(device) == events)
        api.idempotency.inFlight.release(tenantId: tenant.id, key: "busy")
        #expect(post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: "busy").status == 200)
    }

    @Test(arguments: ["", String(repeating: "k", count: 256), "has space", "tab\there", "café", "nul\u{0}"])
    func badKeysAre400(_ key: String) throws {
        let response = post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: key)
        #expect(response.status == 400 && response.problemCode == "invalidIdempotencyKey")
        #expect(try eventCount(device) == 1)  // only the creation's event: nothing ran
    }

    @Test func longestValidKeyIsAccepted() {
        let key = String(repeating: "~", count: 255)
        #expect(post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: key).status == 200)
    }

    @Test func tenantsHaveTheirOwnKeys() throws {
        let other = try api.makeTenant("globex")
        let otherDevice = try api.makeDevice(key: other.key)
        #expect(post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: "shared").status == 200)
        // Tenant B's same key with its own request is a first request, not a reuse nor a replay.
        let b = post("/v1/devices/\(otherDevice)/clock/advance", json: #"{"seconds":5}"#, idempotencyKey: "shared", key: other.key)
        #expect(b.status == 200 && b.headers["Idempotent-Replayed"] == nil)
        // And tenant B cannot get A's answer by replaying A's request with A's key.
        let probe = post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: "fresh", key: other.key)
        #expect(probe.status == 404 && probe.headers["Idempotent-Replayed"] == nil)
    }

    @Test func answersExpireAfter24Hours() throws {
        #expect(post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: "old").status == 200)
        api.wallClock.advance(by: 24 * 3600 + 1)
        let later = post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: "old")
        #expect(later.status == 200 && later.headers["Idempotent-Replayed"] == nil)  // done again
        #expect(later.json["now"] as? String == "2026-01-01T00:02:00.000Z")
        // The expired row was replaced: the key now replays the new answer, and another request with it is a reuse.
        #expect(post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: "old").body == later.body)
        #expect(post(advancePath, json: #"{"seconds":7}"#, idempotencyKey: "old").status == 422)
    }

    @Test func expiredAnswersArePrunedOnInsert() throws {
        for index in 0..<3 {
            #expect(post(advancePath, json: #"{"seconds":1}"#, idempotencyKey: "p\(index)").status == 200)
        }
        let store = SQLiteIdempotencyStore(database: api.database)
        #expect(try store.count() == 3)
        api.wallClock.advance(by: 25 * 3600)
        #expect(post(advancePath, json: #"{"seconds":1}"#, idempotencyKey: "new").status == 200)
        #expect(try store.count() == 1)
    }

    @Test func requestsWithoutTheHeaderAreNotRemembered() throws {
        #expect(post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: nil).status == 200)
        #expect(post(advancePath, json: #"{"seconds":60}"#, idempotencyKey: nil).status == 200)
        #expect(api.send(.get, "/v1/devices/\(device)/clock", key: tenant.key).json["now"] as? String == "2026-01-01T00:02:00.000Z")
        #expect(try SQLiteIdempotencyStore(database: api.database).count() == 0)
    }

    @Test func refusedCommandCommitsItsEffectsWithTheStoredAnswer() throws {
        // Force-quit a not-installed app: a 4xx; whatever it did is committed once and replayed, not redone.
        let path = "/v1/devices/\(device)/apps/com.example.none/launch"
        let first = post(path, json: "{}", idempotencyKey: "refused")
        #expect((400..<500).contains(first.status))
        let events = try eventCount(device)
        let retry = post(path, json: "{}", idempotencyKey: "refused")
        #expect(retry.status == first.status && retry.body == first.body && retry.headers["Idempotent-Replayed"] == "true")
        #expect(try eventCount(device) == events)
    }
}

/// The events of a write made inside an idempotent request's transaction are published only once it committed.
@Suite struct AfterCommitTests {
    let api: APIHarness
    let tenant: (id: String, key: String)
    let device: String
    let published = PublishedEvents()
    let service: DeviceService

    init() throws {
        api = try APIHarness()
        tenant = try api.makeTenant("acme")
        device = try api.makeDevice(key: tenant.key)
        let published = self.published
        service = DeviceService(store: SQLiteDeviceStore(database: api.database), publish: { published.add($0.count) })
    }

    @Test func outsideATransactionEventsArePublishedAtOnce() throws {
        try service.perform(device, tenantId: tenant.id) { $0.reboot() }
        #expect(published.count > 0)
    }

    @Test func insideATransactionEventsWaitForTheCommit() throws {
        let afterCommit = AfterCommit()
        try AfterCommit.$current.withValue(afterCommit) {
            try service.perform(device, tenantId: tenant.id) { $0.reboot() }
        }
        #expect(published.count == 0)
        afterCommit.runAll()
        #expect(published.count > 0)
    }
}

final class PublishedEvents: Sendable {
    private let total = Mutex(0)
    var count: Int { total.withLock { $0 } }
    func add(_ n: Int) { total.withLock { $0 += n } }
}
