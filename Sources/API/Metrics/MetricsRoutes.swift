import HTTPServer

/// `GET /metrics`: the Prometheus exposition, for the admin token (as `/v1/admin` routes); and the same without a
/// token on the separate loopback-only metrics listener (`--metrics-port`).
enum MetricsRoutes {
    static func register(on router: inout Router, _ env: APIEnvironment, metrics: PrometheusMetrics) {
        router.get("/metrics") { request, _ in
            // Outside `/v1`, so the auth middleware leaves it alone: checked here, answered like an admin route.
            guard let token = AuthMiddleware.token(in: request) else {
                throw Problems.unauthorized("Send the admin token as `Authorization: Bearer <token>`.")
            }
            guard env.credentials.isAdmin(token) else { throw Problems.unauthorized("The admin token is not valid.") }
            return response(metrics)
        }
    }

    /// The route of the loopback-only metrics listener: no token, since only this machine (or this pod) reaches it.
    static func registerOpen(on router: inout Router, metrics: PrometheusMetrics) {
        router.get("/metrics") { _, _ in response(metrics) }
    }

    static func response(_ metrics: PrometheusMetrics) -> HTTPResponse {
        HTTPResponse(
            contentType: PrometheusMetrics.contentType, bytes: metrics.exposition(), headers: ["Cache-Control": "no-store"])
    }
}
