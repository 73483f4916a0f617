import HTTPServer
import Logging

/// The optional metrics listener (`--metrics-port`): `GET /metrics` without a token, bound to loopback only so
/// that nothing off the machine (or the pod's network namespace) reaches it; one event loop.
public enum MetricsListener {
    /// A server for `metrics` on `127.0.0.1:port`, not started.
    public static func make(port: Int, metrics: PrometheusMetrics, logger: Logger) -> HTTPServer {
        var router = Router()
        router.add(middleware: ProblemMiddleware())
        MetricsRoutes.registerOpen(on: &router, metrics: metrics)
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: port, eventLoopCount: 1)
        configuration.maxBodySize = 0
        return HTTPServer(configuration: configuration, responder: router.buildResponder(), logger: logger)
    }
}
