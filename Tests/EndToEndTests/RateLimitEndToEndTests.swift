import Foundation
import Synchronization
import Testing

/// `serve --rate-limit` / `--rate-burst` and their environment variables, on the real executable: a tenant past its
/// bucket is answered `429 rateLimited` while another tenant goes on; one a little over its rate is paced to it
/// (`--rate-limit-delay`); `0` turns the limit off.
@Suite struct RateLimitEndToEndTests {
    static let apiKey = "bgk_e2e_rate_limit_key"

    @Test func tenantAExhaustingItsBucketDoesNotLimitTenantB() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.apiKey, extraArguments: ["--rate-limit", "0.01", "--rate-burst", "2"])
        let admin = service.client(key: LiveService.adminToken)
        let keyB = try #require(try admin.request("POST", "/v1/admin/tenants", json: #"{"name":"b"}"#).json["apiKey"] as? String)
        let a = service.client(key: Self.apiKey)
        let first = ContinuousClock.now
        #expect(try a.request("GET", "/v1/devices").status == 200)
        #expect(try a.request("POST", "/v1/devices", json: #"{"name":"a"}"#).status == 201)
        let asked = ContinuousClock.now
        let refused = try a.request("POST", "/v1/devices", json: #"{"name":"a2"}"#)
        // Held for the default second (--rate-limit-hold), then sent with what is left of the 100 s wait.
        #expect(ContinuousClock.now - asked >= .milliseconds(950))
        let since = ContinuousClock.now - first
        #expect(refused.status == 429)
        #expect(refused.json["code"] as? String == "rateLimited")
        #expect(refused.header("Content-Type") == "application/problem+json")
        // What is left of the wait: 100 s less the time since the first token went, which is the hold's second at
        // least (99 on an idle machine) and at most what this side measured (less on a loaded one).
        let left = try #require(refused.header("Retry-After").flatMap { Int($0) })
        #expect(left <= 99 && left >= 99 - Int(since.components.seconds), "\(left) s left after \(since)")
        #expect(refused.header("RateLimit-Policy") == #""tenant";q=1;w=100;bgemu-burst=2"#)
        #expect(refused.header("RateLimit") == #""tenant";r=0;t=\#(left)"#)
        let b = service.client(key: keyB)
        #expect(try b.request("GET", "/v1/devices").status == 200)
        #expect(try b.request("POST", "/v1/devices", json: #"{"name":"b"}"#).status == 201)
        #expect(try a.request("GET", "/v1/devices").status == 429, "A is still limited")
        #expect(try admin.request("GET", "/v1/admin/tenants").status == 200, "the admin token is not limited")
    }

    @Test func theEnvironmentSetsTheLimitAndZeroTurnsItOff() throws {
        let limited = try LiveService()
        try limited.start(
            apiKey: Self.apiKey,
            environment: ["BGEMU_RATE_LIMIT": "0.01", "BGEMU_RATE_BURST": "1", "BGEMU_RATE_LIMIT_HOLD": "0"])
        #expect(try limited.client(key: Self.apiKey).request("GET", "/v1/devices").status == 200)
        let refused = try limited.client(key: Self.apiKey).request("GET", "/v1/devices")
        // Sent at once: all of the 100 s wait is left (a refusal held for the default second says 99, as
        // tenantAExhaustingItsBucketDoesNotLimitTenantB shows), a figure of the bucket's, not of the wall clock.
        #expect(refused.status == 429 && refused.header("Retry-After") == "100", "a hold of 0 sends the refusal at once")

        let unlimited = try LiveService()
        try unlimited.start(
            apiKey: Self.apiKey, extraArguments: ["--rate-limit", "0"], environment: ["BGEMU_RATE_BURST": "1"])
        for _ in 0..<20 { #expect(try unlimited.client(key: Self.apiKey).request("GET", "/v1/devices").status == 200) }
    }

    @Test func aClientAskingFasterThanItsRateIsPacedToItThenRefusedPastTheDelay() throws {
        let service = try LiveService()
        try service.start(
            apiKey: Self.apiKey,
            extraArguments: ["--rate-limit", "20", "--rate-burst", "1", "--rate-limit-delay", "0.25", "--rate-limit-hold", "0"])
        let client = service.client(key: Self.apiKey)
        // One after the other, as fast as answers come: each answer waits for its token, 50 ms after the last.
        let started = ContinuousClock.now
        for _ in 0..<6 { #expect(try client.request("GET", "/v1/devices").status == 200) }
        let took = ContinuousClock.now - started
        // Paced, not refused (all six answered 200), and no faster than the rate; how little longer than 250 ms
        // they take is the machine's speed, not the limiter's (no upper bound).
        #expect(took >= .milliseconds(240), "6 requests at 20 a second take 250 ms: \(took)")
        // 24 at once, from 24 threads: the tokens of the next quarter second are taken (5, 50 ms apart), the rest
        // refused.
        let statuses = Mutex<[Int]>([])
        let group = DispatchGroup()
        let burst = ContinuousClock.now
        for _ in 0..<24 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let status = (try? client.request("GET", "/v1/devices").status) ?? 0
                statuses.withLock { $0.append(status) }
            }
        }
        group.wait()
        let answered = statuses.withLock { $0 }
        // However slowly the threads started: the tokens that came meanwhile, and those of the delay after.
        let spread = Double((ContinuousClock.now - burst).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - burst).components.seconds)
        let served = answered.filter { $0 == 200 }.count
        #expect(served >= 4 && served <= 7 + Int(spread * 20), "\(answered) in \(spread) s")
        #expect(answered.filter { $0 == 429 }.count == 24 - served)
    }

    @Test func anInvalidLimitIsRefusedAtStart() throws {
        let service = try LiveService()
        #expect(throws: (any Error).self) {
            try service.start(apiKey: Self.apiKey, environment: ["BGEMU_RATE_LIMIT": "-1"])
        }
        #expect(service.output.contains("BGEMU_RATE_LIMIT must be from 0"))
    }
}
