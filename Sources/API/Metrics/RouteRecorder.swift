import HTTPServer
import Locking
import Prometheus

/// The request series of one route template: `bgemu_http_requests_total{method,route,status}` and the latency
/// histogram `bgemu_http_request_duration_seconds{method,route}`. Made once per template when the router is built;
/// a series is made the first time its method and status are seen, then a request costs a short scan of the
/// route's few series under a lock, an atomic add and a histogram update: no allocation and no string building.
final class RouteRecorder: HTTPRouteRecorder {
    let route: String
    private let registry: PrometheusCollectorRegistry
    /// One entry per method and status seen on this route (a handful).
    private let series = PlainLock<[Series]>([])

    struct Series {
        let method: HTTPMethod
        let status: Int
        let counter: Counter
        /// Shared by the method's statuses.
        let histogram: ValueHistogram
    }

    static var requestsTotal: MetricNameDescriptor {
        PrometheusMetrics.name("http_requests_total", "HTTP requests answered, by method, route template and status.")
    }
    static var requestDuration: MetricNameDescriptor {
        PrometheusMetrics.name(
            "http_request_duration_seconds",
            "Time to answer an HTTP request (middleware and handler; for an event stream, to its head), by method and route template.")
    }

    init(route: String, registry: PrometheusCollectorRegistry) {
        self.route = route
        self.registry = registry
    }

    func record(method: HTTPMethod, status: Int, seconds: Double) {
        let found = series.withLock { list -> Series? in
            for entry in list where entry.status == status && entry.method == method { return entry }
            return nil
        }
        let entry = found ?? makeSeries(method: method, status: status)
        entry.counter.increment()
        entry.histogram.record(seconds)
    }

    /// The first request of a method and status on this route.
    private func makeSeries(method: HTTPMethod, status: Int) -> Series {
        series.withLock { list in
            if let entry = list.first(where: { $0.status == status && $0.method == method }) { return entry }
            let histogram = list.first { $0.method == method }?.histogram ?? registry.makeValueHistogram(
                descriptor: Self.requestDuration, labels: [("method", method.rawValue), ("route", route)],
                buckets: PrometheusMetrics.requestBuckets)
            let counter = registry.makeCounter(
                descriptor: Self.requestsTotal,
                labels: [("method", method.rawValue), ("route", route), ("status", String(status))])
            let entry = Series(method: method, status: status, counter: counter, histogram: histogram)
            list.append(entry)
            return entry
        }
    }
}
