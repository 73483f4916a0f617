import Foundation
import HTTPServer
import Synchronization
import Testing
@testable import API

/// `GET /metrics`: the Prometheus exposition of the service's requests, streams, storage and limits.
@Suite struct MetricsTests {
    static let admin = APIHarness.adminToken

    /// The exposition as the admin reads it, parsed strictly.
    static func scrape(_ api: APIHarness) throws -> PrometheusText {
        let response = api.send(.get, "/metrics", key: admin)
        #expect(response.status == 200)
        return try PrometheusText(response.text)
    }

    @Test func theExpositionIsTheTextFormatWithCumulativeHistograms() throws {
        let (api, key, device) = try APIHarness.withDevice()
        for _ in 0..<3 { #expect(api.send(.get, "/v1/devices/\(device)", key: key).status == 200) }
        #expect(api.send(.get, "/healthz").status == 200)
        let response = api.send(.get, "/metrics", key: Self.admin)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(response.headers["Cache-Control"] == "no-store")
        let text = try PrometheusText(response.text)  // throws on a malformed line, a missing TYPE, a broken histogram
        #expect(text.types["bgemu_http_requests_total"] == "counter")
        #expect(text.types["bgemu_http_request_duration_seconds"] == "histogram")
        #expect(text.types["bgemu_sqlite_commit_duration_seconds"] == "histogram")
        #expect(text.types["bgemu_events_written_total"] == "counter")
        #expect(text.types["bgemu_stream_refusals_total"] == "counter")
        #expect(text.help["bgemu_http_requests_total"]?.isEmpty == false)
        // Every family has its HELP, and counters are named …_total.
        for (name, type) in text.types {
            #expect(text.help[name] != nil, "\(name) has no HELP")
            if type == "counter" { #expect(name.hasSuffix("_total"), "\(name)") }
        }
        // The latency buckets: 0.5 ms to 10 s, then +Inf.
        let les = text.samples.filter {
            $0.name == "bgemu_http_request_duration_seconds_bucket" && $0.labels["route"] == "/healthz"
        }.compactMap { $0.labels["le"] }
        #expect(les.first == "0.0005" && les.contains("10.0") && les.last == "+Inf")
        let devices = ["method": "GET", "route": "/v1/devices/{deviceId}"]
        #expect(text.value("bgemu_http_request_duration_seconds_count", devices) == 3)
        let sum = try #require(text.value("bgemu_http_request_duration_seconds_sum", devices))
        #expect(sum > 0 && sum < 30)
    }

    @Test func requestsAreCountedByRouteTemplateMethodAndStatusNeverByRawPath() throws {
        let (api, key, device) = try APIHarness.withDevice()
        for _ in 0..<2 { #expect(api.send(.get, "/v1/devices/\(device)", key: key).status == 200) }
        #expect(api.send(.get, "/v1/devices/dev_missing", key: key).status == 404)
        #expect(api.send(.get, "/nowhere/\(device)").status == 404)
        #expect(api.send(.get, "/v1/devices/%FF", key: key).status == 400)
        #expect(api.send(.head, "/v1/devices/\(device)", key: key).status == 200)
        let response = api.send(.get, "/metrics", key: Self.admin)
        let text = try PrometheusText(response.text)
        let route = "/v1/devices/{deviceId}"
        #expect(text.value("bgemu_http_requests_total", ["method": "GET", "route": route, "status": "200"]) == 2)
        #expect(text.value("bgemu_http_requests_total", ["method": "GET", "route": route, "status": "404"]) == 1)
        #expect(text.value("bgemu_http_requests_total", ["method": "HEAD", "route": route, "status": "200"]) == 1)
        #expect(text.value("bgemu_http_requests_total", ["method": "POST", "route": "/v1/devices", "status": "201"]) == 1)
        // Unmatched paths share one label value, whatever they were.
        #expect(text.value("bgemu_http_requests_total", ["method": "GET", "route": "unmatched", "status": "404"]) == 1)
        #expect(text.value("bgemu_http_requests_total", ["method": "GET", "route": "unmatched", "status": "400"]) == 1)
        // No raw path, id or query reaches a label.
        #expect(!response.text.contains(device) && !response.text.contains("dev_missing") && !response.text.contains("nowhere"))
        for sample in text.samples {
            if let value = sample.labels["route"] { #expect(value == "unmatched" || value.hasPrefix("/"), "\(value)") }
        }
    }

    @Test func metricsNeedTheAdminTokenAsAdminRoutesDo() throws {
        let api = try APIHarness()
        let tenant = try api.makeTenant("acme")
        let anonymous = api.send(.get, "/metrics")
        #expect(anonymous.status == 401 && anonymous.problemCode == "unauthorized")
        #expect(anonymous.headers["WWW-Authenticate"] == "Bearer realm=\"bgemu\"")
        #expect(anonymous.headers["Content-Type"] == "application/problem+json")
        // A tenant's key is refused as on an admin route: 401 with the same problem.
        let tenantKey = api.send(.get, "/metrics", key: tenant.key)
        let adminRoute = api.send(.get, "/v1/admin/tenants", key: tenant.key)
        #expect(tenantKey.status == 401 && adminRoute.status == 401)
        #expect(tenantKey.json["detail"] as? String == adminRoute.json["detail"] as? String)
        #expect(api.send(.get, "/metrics", key: "wrong").status == 401)
        #expect(api.send(.get, "/metrics", key: Self.admin).status == 200)
        #expect(api.send(.head, "/metrics", key: Self.admin).status == 200)
        #expect(api.send(.post, "/metrics", key: Self.admin).status == 405)
    }

    @Test func eventsWrittenAndCommitTimesAreCounted() throws {
        let (api, key, device) = try APIHarness.withDevice()
        #expect(api.send(.post, "/v1/devices/\(device)/clock/advance", key: key, json: #"{"seconds":60}"#).status < 300)
        let logged = try #require(try api.database.read { db throws in try db.scalar("SELECT count(*) FROM events", as: Int.self) })
        #expect(logged > 0)
        let text = try Self.scrape(api)
        #expect(text.value("bgemu_events_written_total") == Double(logged))
        let commits = try #require(text.value("bgemu_sqlite_commit_duration_seconds_count"))
        #expect(commits >= 3)  // the tenant, the device, the clock advance at least
        #expect(text.value("bgemu_sqlite_commit_duration_seconds_bucket", ["le": "+Inf"]) == commits)
    }

    @Test func labelValuesAreEscaped() throws {
        let metrics = PrometheusMetrics()
        let tenant = "ten_\"quoted\"\\back\nline"
        metrics.setSources(PrometheusMetrics.Sources(streamsByTenant: { [tenant: 2, "ten_plain": 1] }))
        let raw = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(raw.contains(#"bgemu_tenant_event_streams_open{tenant="ten_\"quoted\"\\back\nline"} 2"#))
        let text = try PrometheusText(raw)
        #expect(text.value("bgemu_tenant_event_streams_open", ["tenant": tenant]) == 2)
        #expect(text.value("bgemu_event_streams_open") == 3)
    }

    @Test func aTenantsStreamSeriesGoesWhenItsLastStreamCloses() throws {
        let metrics = PrometheusMetrics()
        let open = Mutex<[String: Int]>(["ten_a": 2, "ten_b": 1])
        metrics.setSources(PrometheusMetrics.Sources(
            server: { HTTPServerStatistics(openConnections: 4, acceptedConnections: 9, refusedRequests: [408: 2]) },
            streamsByTenant: { open.withLock { $0 } }, realtimeClocks: { 5 }))
        var text = try PrometheusText(String(decoding: metrics.exposition(), as: UTF8.self))
        #expect(text.value("bgemu_tenant_event_streams_open", ["tenant": "ten_b"]) == 1)
        #expect(text.value("bgemu_http_connections_open") == 4)
        #expect(text.value("bgemu_http_connections_total") == 9)
        #expect(text.value("bgemu_http_refused_requests_total", ["status": "408"]) == 2)
        #expect(text.value("bgemu_realtime_clocks_driven") == 5)
        open.withLock { $0 = ["ten_a": 1] }
        text = try PrometheusText(String(decoding: metrics.exposition(), as: UTF8.self))
        #expect(text.value("bgemu_tenant_event_streams_open", ["tenant": "ten_b"]) == nil)
        #expect(text.value("bgemu_tenant_event_streams_open", ["tenant": "ten_a"]) == 1)
        #expect(text.value("bgemu_event_streams_open") == 1)
        // Totals read from the server stay totals across scrapes.
        #expect(text.value("bgemu_http_connections_total") == 9)
        #expect(text.value("bgemu_http_refused_requests_total", ["status": "408"]) == 2)
        open.withLock { $0 = [:] }
        text = try PrometheusText(String(decoding: metrics.exposition(), as: UTF8.self))
        #expect(text.types["bgemu_tenant_event_streams_open"] == nil)
        #expect(text.value("bgemu_event_streams_open") == 0)
    }

    @Test func streamRefusalsAreCountedByReason() throws {
        let metrics = PrometheusMetrics()
        let api = try EventTestHarness(maximumStreams: 2, maximumStreamsPerTenant: 1, metrics: metrics)
        let acme = try api.makeTenant("acme"), other = try api.makeTenant("other")
        let stream: HTTPHeaders = ["Accept": "text/event-stream"]
        let first = api.respond(.get, "/v1/events", key: acme.key, headers: stream)
        #expect(first.status.code == 200)
        #expect(api.send(.get, "/v1/events", key: acme.key, headers: stream).status == 429)
        let second = api.respond(.get, "/v1/events", key: other.key, headers: stream)
        #expect(second.status.code == 200)
        #expect(api.send(.get, "/v1/events", key: other.key, headers: stream).status == 503)
        #expect(api.send(.get, "/v1/events", key: acme.key, headers: stream).status == 503)
        let text = try PrometheusText(String(decoding: metrics.exposition(), as: UTF8.self))
        #expect(text.value("bgemu_stream_refusals_total", ["reason": "tooManyStreamsForTenant"]) == 1)
        #expect(text.value("bgemu_stream_refusals_total", ["reason": "tooManyStreams"]) == 2)
        withExtendedLifetime((first, second)) {}
    }

    @Test func rateLimitRefusalsAreCountedByReason() throws {
        let metrics = PrometheusMetrics()
        let before = try PrometheusText(String(decoding: metrics.exposition(), as: UTF8.self))
        #expect(before.value("bgemu_rate_limited_total", ["reason": "requestRate"]) == 0)
        metrics.rateLimited()
        metrics.rateLimited()
        metrics.rateLimited(reason: "other")
        let text = try PrometheusText(String(decoding: metrics.exposition(), as: UTF8.self))
        #expect(text.types["bgemu_rate_limited_total"] == "counter")
        #expect(text.value("bgemu_rate_limited_total", ["reason": "requestRate"]) == 2)
        #expect(text.value("bgemu_rate_limited_total", ["reason": "other"]) == 1)
    }
}
