import Foundation
import Testing

/// `GET /metrics` of the real executable over HTTP: what a Prometheus scrape sees after some traffic.
@Suite(.serialized) struct MetricsEndToEndTests {
    static let key = "metrics-e2e-key-0123456789"

    @Test func aScrapeFindsTheRequestsByRouteTemplateAndNeedsTheAdminToken() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key, extraArguments: ["--metrics-port", "0"])
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let device = try client.request("POST", "/v1/devices", json: #"{"name":"scraped"}"#)
        let id = try #require(device.json["id"] as? String)
        for _ in 0..<3 { #expect(try client.request("GET", "/v1/devices/\(id)").status == 200) }
        #expect(try client.request("GET", "/v1/devices/dev_nothere").status == 404)
        #expect(try client.request("GET", "/no/such/path").status == 404)

        #expect(try service.client().request("GET", "/metrics").status == 401)
        let withTenantKey = try client.request("GET", "/metrics")
        #expect(withTenantKey.status == 401)
        #expect(withTenantKey.header("WWW-Authenticate") == "Bearer realm=\"bgemu\"")

        let scrape = try service.client(key: LiveService.adminToken).request("GET", "/metrics")
        #expect(scrape.status == 200)
        #expect(scrape.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let lines = Set(scrape.text.split(separator: "\n").map(String.init))
        let route = "/v1/devices/{deviceId}"
        #expect(lines.contains(#"bgemu_http_requests_total{method="GET",route="\#(route)",status="200"} 3"#))
        #expect(lines.contains(#"bgemu_http_requests_total{method="GET",route="\#(route)",status="404"} 1"#))
        #expect(lines.contains(#"bgemu_http_requests_total{method="POST",route="/v1/devices",status="201"} 1"#))
        #expect(lines.contains(#"bgemu_http_requests_total{method="GET",route="unmatched",status="404"} 1"#))
        #expect(lines.contains(#"bgemu_http_request_duration_seconds_count{method="GET",route="\#(route)"} 4"#))  // 200s and the 404
        #expect(lines.contains("# TYPE bgemu_http_request_duration_seconds histogram"))
        #expect(lines.contains("bgemu_events_written_total 1"))  // the device's creation
        #expect(lines.contains { $0.hasPrefix("bgemu_sqlite_commit_duration_seconds_count ") })
        // This scrape's own connection at least (those before it may still be closing).
        let open = try #require(lines.first { $0.hasPrefix("bgemu_http_connections_open ") }?.split(separator: " ").last)
        #expect((Double(open) ?? 0) >= 1)
        #expect(lines.contains("bgemu_event_streams_open 0.0"))
        #expect(lines.contains("bgemu_realtime_clocks_driven 0.0"))
        #expect(lines.contains { $0.hasPrefix("process_resident_memory_bytes ") })
        #expect(!scrape.text.contains(id) && !scrape.text.contains("dev_nothere") && !scrape.text.contains("/no/such"))

        // The loopback metrics listener answers the same document without a token, and counts no request of its own.
        let line = try #require(service.output.split(separator: "\n").first { $0.contains("bgemu metrics on http://127.0.0.1:") })
        let port = try #require(Int(line.split(separator: ":").last?.split(separator: "/").first ?? ""))
        let unauthenticated = try TestClient(port: port, key: nil).request("GET", "/metrics")
        #expect(unauthenticated.status == 200)
        #expect(unauthenticated.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        #expect(unauthenticated.text.contains(#"bgemu_http_requests_total{method="GET",route="/metrics",status="200"} 1"#))
        #expect(try TestClient(port: port, key: nil).request("GET", "/v1/devices").status == 404)
        let again = try TestClient(port: port, key: nil).request("GET", "/metrics")
        #expect(again.text.contains(#"bgemu_http_requests_total{method="GET",route="/metrics",status="200"} 1"#))
    }
}
