import HTTPServer
import Prometheus

extension PrometheusMetrics {
    /// The exposition of every metric now (text format 0.0.4): the values read at scrape time are read first.
    /// Scrapes run one at a time.
    public func exposition() -> [UInt8] {
        let current = sources.withLock { $0 }
        return scrape.withLock { state in
            if let server = current.server?() { update(server, &state) }
            if let streamsByTenant = current.streamsByTenant?() { update(streamsByTenant, &state) }
            if let realtimeClocks = current.realtimeClocks?() {
                registry.makeGauge(descriptor: Self.name(
                    "realtime_clocks_driven", "Realtime device clocks the driver moves (those with a timer pending)."))
                    .set(to: Double(realtimeClocks))
            }
            if let process = ProcessStatistics.read() {
                registry.makeGauge(descriptor: MetricNameDescriptor(
                    metricName: "process_resident_memory_bytes", unitName: "", helpText: "Resident memory size in bytes."))
                    .set(to: Double(process.residentBytes))
                registry.makeGauge(descriptor: MetricNameDescriptor(
                    metricName: "process_open_fds", unitName: "", helpText: "Open file descriptors."))
                    .set(to: Double(process.openDescriptors))
                registry.makeGauge(descriptor: MetricNameDescriptor(
                    metricName: "process_max_fds", unitName: "", helpText: "The soft limit of open file descriptors."))
                    .set(to: Double(process.maximumDescriptors))
            }
            var buffer: [UInt8] = []
            buffer.reserveCapacity(32 * 1024)
            registry.emit(into: &buffer)
            return buffer
        }
    }

    /// Connection gauges; the server's running totals become counter increments since the last scrape.
    private func update(_ server: HTTPServerStatistics, _ state: inout ScrapeState) {
        registry.makeGauge(descriptor: Self.name("http_connections_open", "HTTP connections open now."))
            .set(to: Double(server.openConnections))
        let accepted = registry.makeCounter(
            descriptor: Self.name("http_connections_total", "HTTP connections accepted since the start."))
        accepted.increment(by: Int64(max(0, server.acceptedConnections - state.acceptedConnections)))
        state.acceptedConnections = server.acceptedConnections
        for (status, total) in server.refusedRequests.sorted(by: { $0.key < $1.key }) {
            let counter = registry.makeCounter(
                descriptor: Self.name(
                    "http_refused_requests_total",
                    "Requests the server answered itself before routing (malformed, too large, too slow), by status."),
                labels: [("status", String(status))])
            counter.increment(by: Int64(max(0, total - (state.refusedRequests[status] ?? 0))))
        }
        state.refusedRequests = server.refusedRequests
    }

    /// The open-stream gauges: in all, and one series per tenant that holds a stream open (a tenant whose last
    /// stream closed loses its series, so the label's values are bounded by the tenants with open streams).
    private func update(_ streamsByTenant: [String: Int], _ state: inout ScrapeState) {
        registry.makeGauge(descriptor: Self.name("event_streams_open", "Event streams open now."))
            .set(to: Double(streamsByTenant.values.reduce(0, +)))
        let descriptor = Self.name("tenant_event_streams_open", "Event streams open now, by tenant id.")
        for (tenant, gauge) in state.tenantGauges where (streamsByTenant[tenant] ?? 0) == 0 {
            registry.unregisterGauge(gauge)
            state.tenantGauges[tenant] = nil
        }
        for (tenant, count) in streamsByTenant where count > 0 {
            let gauge = state.tenantGauges[tenant] ?? registry.makeGauge(descriptor: descriptor, labels: [("tenant", tenant)])
            state.tenantGauges[tenant] = gauge
            gauge.set(to: Double(count))
        }
    }
}
