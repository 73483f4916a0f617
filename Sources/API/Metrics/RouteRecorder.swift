import HTTPServer
import Prometheus
import Synchronization

/// The request series of one route template: `bgemu_http_requests_total{method,route,status}` and the latency
/// histogram `bgemu_http_request_duration_seconds{method,route}`. Made once per template when the router is built;
/// a series is made the first time its method (and status) is seen, then a request costs one lock, a dictionary
/// lookup, an atomic add and a histogram update: no allocation and no string building.
final class RouteRecorder: HTTPRouteRecorder {
    let route: String
    private let registry: PrometheusCollectorRegistry
    private let series = Mutex<[HTTPMethod: MethodSeries]>([:])

    /// One method's histogram and its counters by status.
    struct MethodSeries {
        let histogram: DurationHistogram
        var counters: [Int: Counter] = [:]
    }

    static var requestsTotal: MetricNameDescriptor {
        ServiceMetrics.name("http_requests_total", "HTTP requests answered, by method, route template and status.")
    }
    static var requestDuration: MetricNameDescriptor {
        ServiceMetrics.name(
            "http_request_duration_seconds",
            "Time to answer an HTTP request (middleware and handler; for an event stream, to its head), by method and route template.")
    }

    init(route: String, registry: PrometheusCollectorRegistry) {
        self.route = route
        self.registry = registry
    }

    func record(method: HTTPMethod, status: Int, duration: Duration) {
        let (counter, histogram) = series.withLock { table -> (Counter, DurationHistogram) in
            if let entry = table[method], let counter = entry.counters[status] { return (counter, entry.histogram) }
            return makeSeries(method: method, status: status, in: &table)
        }
        counter.increment()
        histogram.record(duration)
    }

    /// The first request of a method or status on this route.
    private func makeSeries(
        method: HTTPMethod, status: Int, in table: inout [HTTPMethod: MethodSeries]
    ) -> (Counter, DurationHistogram) {
        var entry = table[method] ?? MethodSeries(
            histogram: registry.makeDurationHistogram(
                descriptor: Self.requestDuration, labels: [("method", method.rawValue), ("route", route)],
                buckets: ServiceMetrics.requestBuckets))
        let counter = registry.makeCounter(
            descriptor: Self.requestsTotal,
            labels: [("method", method.rawValue), ("route", route), ("status", String(status))])
        entry.counters[status] = counter
        table[method] = entry
        return (counter, entry.histogram)
    }
}
