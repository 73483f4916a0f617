import Foundation
import Testing

/// An instance started as one shard of several (`--shard-id`, issue 30 §1): every answer names it in `Bgemu-Shard`
/// — a route's, an error's and the server's own refusals — and `/healthz` says it, for a proxy in front.
@Suite(.serialized) struct ShardIdEndToEndTests {
    static let key = "shard-e2e-key-0123456789"

    @Test func everyAnswerCarriesTheShardAndHealthzSaysIt() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key, extraArguments: ["--shard-id", "shard-2"])
        defer { service.stop() }
        let api = service.client(key: Self.key)
        let health = try api.request("GET", "/healthz")
        #expect(health.status == 200 && health.header("Bgemu-Shard") == "shard-2")
        #expect(String(decoding: health.body, as: UTF8.self) == #"{"shard":"shard-2","status":"ok"}"#)
        #expect(try api.request("POST", "/v1/devices", json: #"{"name":"x"}"#).header("Bgemu-Shard") == "shard-2")
        #expect(try api.request("GET", "/v1/devices/dev_nope").header("Bgemu-Shard") == "shard-2")  // a 404
        let tooLarge = try api.request("GET", "/healthz", headers: [("X-Padding", String(repeating: "a", count: 20_000))])
        #expect(tooLarge.status == 431 && tooLarge.header("Bgemu-Shard") == "shard-2")  // the server's own refusal
    }

    @Test func withoutAShardIdNoAnswerNamesOneAndABadIdIsAUsageError() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let health = try service.client(key: Self.key).request("GET", "/healthz")
        #expect(health.header("Bgemu-Shard") == nil && String(decoding: health.body, as: UTF8.self) == #"{"status":"ok"}"#)
        let bad = try CommandLineRunner().run(["serve", "--port", "0", "--shard-id", "a b", "--database", service.directory.appendingPathComponent("x.sqlite").path])
        #expect(bad.status != 0 && bad.stderr.contains("--shard-id"), "\(bad.stderr)")
    }
}
