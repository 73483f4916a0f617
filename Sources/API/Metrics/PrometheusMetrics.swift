import HTTPServer
import Locking
import Prometheus
import Synchronization

/// The service's Prometheus metrics: what requests, streams, storage and the realtime driver report, and the
/// exposition (text format 0.0.4) that `GET /metrics` answers.
///
/// Counted as it happens: requests (through the router, as an `HTTPRouteObserver`), events written, SQLite
/// commit times, refusals. Read at each scrape from their owners (``Sources``): connections, open streams,
/// realtime clocks. Every label has a bounded set of values: route templates (never raw paths), the methods the
/// server implements, status codes, fixed reasons, and tenant ids of tenants that hold a stream open.
public final class PrometheusMetrics: HTTPRouteObserver, Sendable {
    /// The media type of the exposition.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"
    /// The `route` label of requests that match no route template (static files, `404`s, undecodable paths).
    public static let unmatchedRoute = "unmatched"

    /// Request latency buckets, in seconds: 0.5 ms to 10 s. (Seconds as `Double`: a histogram of doubles records
    /// in fewer instructions than one of `Duration`s, and renders the same.)
    static let requestBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// SQLite commit buckets, in seconds: 50 µs (a WAL append) to 1 s (a checkpoint on a slow disk).
    static let commitBuckets: [Double] = [
        0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
    ]

    /// `duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// Where the values read at scrape time come from; each is optional, a missing one is not exposed.
    public struct Sources: Sendable {
        /// The HTTP server's connection counts.
        public var server: (@Sendable () -> HTTPServerStatistics)?
        /// Open event streams, by tenant id.
        public var streamsByTenant: (@Sendable () -> [String: Int])?
        /// Realtime clocks the driver is moving.
        public var realtimeClocks: (@Sendable () -> Int)?

        public init(
            server: (@Sendable () -> HTTPServerStatistics)? = nil,
            streamsByTenant: (@Sendable () -> [String: Int])? = nil, realtimeClocks: (@Sendable () -> Int)? = nil
        ) {
            self.server = server
            self.streamsByTenant = streamsByTenant
            self.realtimeClocks = realtimeClocks
        }
    }

    let registry = PrometheusCollectorRegistry()
    let sources = Mutex(Sources())
    /// Recorders by route template (nil: unmatched), made once each when the router is built.
    private let recorders = PlainLock<[String: RouteRecorder]>([:])
    /// What the last scrape saw, to turn totals read from their owners into counter increments, and to drop the
    /// series of tenants that closed their last stream. Held for the whole scrape: scrapes run one at a time.
    let scrape = Mutex(ScrapeState())

    private let eventsWritten: Counter
    private let commitDuration: ValueHistogram
    private let streamRefusals: [StreamRefusal: Counter]
    private let rateLimited = Mutex<[String: Counter]>([:])
    private let pacedRequests: Counter

    /// Why a stream was refused: the problem codes of the two stream limits.
    public enum StreamRefusal: String, Sendable, CaseIterable {
        /// The instance holds `--max-streams` already (`503`).
        case tooManyStreams
        /// The tenant holds its share, `--max-streams-per-tenant`, already (`429`).
        case tooManyStreamsForTenant
    }

    struct ScrapeState {
        var acceptedConnections = 0
        var refusedRequests: [Int: Int] = [:]
        var tenantGauges: [String: Gauge] = [:]
    }

    public init() {
        eventsWritten = registry.makeCounter(descriptor: Self.name(
            "events_written_total", "Events committed to the event log (each also published to the open streams)."))
        commitDuration = registry.makeValueHistogram(
            descriptor: Self.name(
                "sqlite_commit_duration_seconds",
                "Time of the COMMIT of each SQLite write transaction, measured in the storage layer."),
            buckets: Self.commitBuckets)
        var refusals: [StreamRefusal: Counter] = [:]
        for reason in StreamRefusal.allCases {
            refusals[reason] = registry.makeCounter(
                descriptor: Self.name("stream_refusals_total", "Event streams refused by a stream limit, by problem code."),
                labels: [("reason", reason.rawValue)])
        }
        streamRefusals = refusals
        pacedRequests = registry.makeCounter(descriptor: Self.name(
            "rate_paced_total",
            "Requests over their tenant's rate answered when their token came (--rate-limit-delay), not refused."))
        pacedRequests.increment(by: Int64(0))
        rateLimited(reason: "requestRate", by: 0)  // at 0 from the start, so that rate() sees the first refusal
    }

    /// Sets where the scrape-time values come from (the server, the hub, the realtime driver), replacing what was
    /// set before; call once they exist.
    public func setSources(_ new: Sources) {
        sources.withLock { $0 = new }
    }

    // MARK: Recording

    public func recorder(forRoute route: String?) -> any HTTPRouteRecorder {
        let label = route ?? Self.unmatchedRoute
        return recorders.withLock { recorders in
            if let recorder = recorders[label] { return recorder }
            let recorder = RouteRecorder(route: label, registry: registry)
            recorders[label] = recorder
            return recorder
        }
    }

    /// Counts `count` events committed to the log.
    public func eventsWritten(_ count: Int) {
        guard count > 0 else { return }
        eventsWritten.increment(by: Int64(count))
    }

    /// Records the duration of one SQLite `COMMIT` (see `Database.observeCommits`).
    public func commitFinished(after duration: Duration) {
        commitDuration.record(Self.seconds(duration))
    }

    /// Counts one event stream refused by a stream limit.
    public func streamRefused(_ reason: StreamRefusal) {
        streamRefusals[reason]?.increment()
    }

    /// Counts one request refused by the per-key rate limiter, as `bgemu_rate_limited_total{reason=…}`. The rate
    /// limiter calls it where it answers `429`; `reason` is a constant of its own (`"requestRate"`), so the label
    /// keeps a fixed, small set of values.
    public func rateLimited(reason: StaticString = "requestRate") {
        rateLimited(reason: reason, by: 1)
    }

    /// Counts one request over its tenant's rate that was paced (answered when its token came) rather than refused.
    public func ratePaced() {
        pacedRequests.increment()
    }

    private func rateLimited(reason: StaticString, by amount: Int64) {
        let reason = reason.description
        let counter = rateLimited.withLock { counters in
            if let counter = counters[reason] { return counter }
            let counter = registry.makeCounter(
                descriptor: Self.name("rate_limited_total", "Requests refused with 429 by the per-key rate limiter."),
                labels: [("reason", reason)])
            counters[reason] = counter
            return counter
        }
        counter.increment(by: amount)
    }

    static func name(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "bgemu", metricName: name, unitName: "", helpText: help)
    }
}
