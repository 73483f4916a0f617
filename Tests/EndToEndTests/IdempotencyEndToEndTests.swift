import Foundation
import Testing

/// `Idempotency-Key` on a live service, across a crash between the commit and the answer.
@Suite struct IdempotencyEndToEndTests {
    static let apiKey = "idem-key-0123456789"
    static let faultHeader = "X-Test-Exit-After-Commit"

    @Test func aRetryAfterACrashBetweenCommitAndAnswerReplaysTheCommittedAnswer() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.apiKey, environment: ["BGEMU_TEST_FAULT_EXIT_AFTER_COMMIT": Self.faultHeader])
        let client = { service.client(key: Self.apiKey) }
        let id = try #require(try client().request("POST", "/v1/devices", json: #"{"name":"crash"}"#).json["id"] as? String)
        let events = { try client().request("GET", "/v1/devices/\(id)/events?limit=100").json["items"] as? [[String: Any]] ?? [] }
        let before = try events().count

        // The service commits the advance and its answer, then dies (as kill -9 would) before answering.
        let advance = #"{"seconds":60}"#
        let crashed = try? client().request(
            "POST", "/v1/devices/\(id)/clock/advance", json: advance,
            headers: [("Idempotency-Key", "retry-me"), (Self.faultHeader, "1")])
        #expect(crashed == nil)  // no answer: the connection closed with the process
        #expect(service.waitForExit() == 137)

        // Restarted on the same database, the client's retry gets the committed answer, and nothing runs twice.
        try service.start(apiKey: Self.apiKey)
        defer { service.stop() }
        let committed = try events()
        #expect(committed.count > before)  // the advance did commit
        let retry = try client().request(
            "POST", "/v1/devices/\(id)/clock/advance", json: advance, headers: [("Idempotency-Key", "retry-me")])
        #expect(retry.status == 200)
        #expect(retry.header("Idempotent-Replayed") == "true")
        #expect(retry.json["now"] as? String == "2026-01-01T00:01:00.000Z")
        #expect(try events().count == committed.count)  // exactly one write's events
        let clock = try client().request("GET", "/v1/devices/\(id)/clock")
        #expect(clock.json["now"] as? String == "2026-01-01T00:01:00.000Z")

        // A retry again still replays; a request without the fault header and a new key is done once more.
        let again = try client().request(
            "POST", "/v1/devices/\(id)/clock/advance", json: advance, headers: [("Idempotency-Key", "retry-me")])
        #expect(again.body == retry.body && again.header("Idempotent-Replayed") == "true")
    }
}
