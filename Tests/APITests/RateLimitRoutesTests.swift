import Foundation
import Glibc
import Logging
import Testing
@testable import API
@testable import Service
@testable import HTTPServer

/// `429 rateLimited`: each tenant's requests through its own token bucket, refused with `Retry-After` and the
/// httpapi draft's fields, judged before a body is read.
@Suite struct RateLimitRoutesTests {
    private func harness(rate: Double = 1, burst: Int = 2) throws -> (APIHarness, ManualClock, RateLimiter) {
        let clock = ManualClock()
        let limiter = RateLimiter(policy: RateLimitPolicy(rate: rate, burst: burst)!, clock: clock.function)
        // Tenants are made through the admin API, which the limit does not touch.
        return (try APIHarness(rateLimiter: limiter), clock, limiter)
    }

    @Test func pastItsBurstATenantIsAnswered429WithRetryAfterAndTheDraftFields() throws {
        let (api, clock, limiter) = try harness(rate: 0.5, burst: 2)
        let key = try api.makeTenant("acme").key
        #expect(api.send(.get, "/v1/devices", key: key).status == 200)
        #expect(api.send(.get, "/v1/devices", key: key).status == 200)
        let refused = api.send(.get, "/v1/devices", key: key)
        #expect(refused.status == 429)
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        #expect(refused.problemCode == "rateLimited")
        #expect(refused.json["type"] as? String == "urn:bgemu:problem:rateLimited")
        // Held for a second (the limiter's maximum hold), then sent with the second of the wait that is left.
        #expect(refused.delay == .seconds(1))
        #expect(refused.headers["Retry-After"] == "1")
        #expect(refused.headers["RateLimit-Policy"] == #""tenant";q=1;w=2;bgemu-burst=2"#)
        #expect(refused.headers["RateLimit"] == #""tenant";r=0;t=1"#)
        #expect(limiter.refusals == 1)
        clock.advance(seconds: 2)
        #expect(api.send(.get, "/v1/devices", key: key).status == 200, "a token is back after Retry-After")
    }

    /// Each `429` of the limiter is counted in `bgemu_rate_limited_total`, as `GET /metrics` shows it.
    @Test func everyRefusalIsCountedInTheMetrics() throws {
        let (api, _, limiter) = try harness(rate: 0.5, burst: 1)
        let key = try api.makeTenant("acme").key
        let statuses = (0..<4).map { _ in api.send(.get, "/v1/devices", key: key).status }
        #expect(statuses == [200, 429, 429, 429])
        let scrape = api.send(.get, "/metrics", key: APIHarness.adminToken)
        let text = try PrometheusText(String(decoding: scrape.body, as: UTF8.self))
        #expect(text.value("bgemu_rate_limited_total", ["reason": "requestRate"]) == 3)
        #expect(limiter.refusals == 3)
    }

    /// A request whose token comes within the limiter's delay is answered, its answer held until the token, and
    /// counted in `bgemu_rate_paced_total`; past the delay it is refused.
    @Test func aRequestJustOverTheRateIsAnsweredWhenItsTokenComesAndCounted() throws {
        let clock = ManualClock()
        let limiter = RateLimiter(
            policy: RateLimitPolicy(rate: 10, burst: 1)!, maximumDelay: .milliseconds(250), clock: clock.function)
        let api = try APIHarness(rateLimiter: limiter)
        let key = try api.makeTenant("acme").key
        let first = api.send(.post, "/v1/devices", key: key, json: #"{"name":"one"}"#)
        #expect(first.status == 201 && first.delay == .zero)
        let paced = api.send(.post, "/v1/devices", key: key, json: #"{"name":"two"}"#)
        #expect(paced.status == 201, "paced, not refused: the device is made")
        #expect(paced.delay == .milliseconds(100), "its answer waits for the next token")
        let failing = api.send(.get, "/v1/devices/dev_missing", key: key)
        #expect(failing.status == 404 && failing.delay == .milliseconds(200), "a paced request that fails waits too")
        #expect(api.send(.get, "/v1/devices", key: key).status == 429, "the next token is 300 ms away: past the delay")
        let scrape = api.send(.get, "/metrics", key: APIHarness.adminToken)
        let text = try PrometheusText(String(decoding: scrape.body, as: UTF8.self))
        #expect(text.value("bgemu_rate_paced_total", [:]) == 2)  // the creation and the failing read
        #expect(text.value("bgemu_rate_limited_total", ["reason": "requestRate"]) == 1)
    }

    @Test func writesAndReadsShareTheBucketAndARefusedWriteDoesNothing() throws {
        let (api, clock, _) = try harness(rate: 1, burst: 2)
        let key = try api.makeTenant("acme").key
        #expect(api.send(.post, "/v1/devices", key: key, json: #"{"name":"one"}"#).status == 201)
        #expect(api.send(.get, "/v1/devices", key: key).status == 200)
        let refused = api.send(.post, "/v1/devices", key: key, json: #"{"name":"two"}"#)
        #expect(refused.status == 429)
        clock.advance(seconds: 1)
        let names = api.send(.get, "/v1/devices", key: key).items.compactMap { $0["name"] as? String }
        #expect(names == ["one"], "the refused create made no device")
    }

    @Test func oneTenantsEmptyBucketLimitsNeitherAnotherTenantNorTheAdmin() throws {
        let (api, _, _) = try harness(rate: 1, burst: 1)
        let a = try api.makeTenant("a").key
        let b = try api.makeTenant("b").key
        #expect(api.send(.get, "/v1/devices", key: a).status == 200)
        #expect(api.send(.get, "/v1/devices", key: a).status == 429)
        #expect(api.send(.get, "/v1/devices", key: b).status == 200)
        for _ in 0..<5 {
            #expect(api.send(.get, "/v1/admin/tenants", key: APIHarness.adminToken).status == 200)
            #expect(api.send(.get, "/healthz").status == 200)
        }
    }

    @Test func aRefusedCredentialTakesNoToken() throws {
        let (api, _, limiter) = try harness(rate: 1, burst: 1)
        let key = try api.makeTenant("acme").key
        for _ in 0..<5 { #expect(api.send(.get, "/v1/devices", key: "bgk_wrong").status == 401) }
        #expect(api.send(.get, "/v1/devices").status == 401)
        #expect(api.send(.get, "/v1/devices", key: key).status == 200)
        #expect(limiter.refusals == 0)
    }

    @Test func aLimitedTenantIsRefusedFromTheHeadBeforeItsBodyIsRead() throws {
        let (api, clock, _) = try harness(rate: 1, burst: 1)
        let key = try api.makeTenant("acme").key
        var headers = HTTPHeaders()
        headers["Authorization"] = "Bearer \(key)"
        headers["Content-Type"] = "application/json"
        headers["Content-Length"] = "100000"
        let head = HTTPRequest(method: .post, target: "/v1/devices", headers: headers)
        let context = HTTPRequestContext(requestId: "test", logger: Logger(label: "test"))
        #expect(!api.responder.answersWithoutBody(head, context: context), "a full bucket: the body is read")
        #expect(api.send(.get, "/v1/devices", key: key).status == 200)
        #expect(api.responder.answersWithoutBody(head, context: context), "an empty bucket: answered from the head")
        // The server then answers from the head. A token that came back meanwhile does not let the head
        // through to a route that would read a body it does not have.
        clock.advance(seconds: 0.9)
        let answer = try TestResponse(api.responder.respond(to: head, context: context))
        #expect(answer.status == 429)
        #expect(answer.problemCode == "rateLimited")
        #expect(answer.delay == .zero, "an answer from the head closes the connection: it is not held")
    }

    @Test func anUnlimitedRouterHasNoRateLimitFields() throws {
        let api = try APIHarness()
        let key = try api.makeTenant("acme").key
        for _ in 0..<50 { #expect(api.send(.get, "/v1/devices", key: key).status == 200) }
    }

    @Test func tenantAExhaustingItsBucketDoesNotLimitTenantBOverHTTP() throws {
        let limiter = RateLimiter(policy: RateLimitPolicy(rate: 0.01, burst: 3)!, maximumHold: .milliseconds(20))
        let api = try APIHarness(rateLimiter: limiter)
        let a = try api.makeTenant("a").key
        let b = try api.makeTenant("b").key
        try api.withServer(eventLoops: 2) { port in
            let aStatuses = try (0..<10).map { _ in try Self.status(port: port, "GET /v1/devices", key: a) }
            #expect(aStatuses == [200, 200, 200] + Array(repeating: 429, count: 7))
            let bStatuses = try (0..<3).map { _ in try Self.status(port: port, "GET /v1/devices", key: b) }
            #expect(bStatuses == [200, 200, 200])
            // A's slow body is not waited for: the head announces 100,000 bytes, one is sent, 429 comes back.
            let answer = try RawSocket.exchange(
                port: port, "POST /v1/devices HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(a)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
            #expect(answer.hasPrefix("HTTP/1.1 429 "))
            #expect(answer.contains("Retry-After: "))
            #expect(answer.contains("RateLimit: \"tenant\";r=0;t="))
            #expect(answer.contains("Connection: close\r\n"))
        }
    }

    /// The status of one request on its own connection.
    private static func status(port: Int, _ requestLine: String, key: String) throws -> Int {
        let answer = try RawSocket.exchange(
            port: port, "\(requestLine) HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(key)\r\nConnection: close\r\n\r\n")
        return Int(answer.dropFirst("HTTP/1.1 ".count).prefix(3)) ?? 0
    }

}
