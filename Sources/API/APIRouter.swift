import HTTPServer
import Logging

/// Builds the service's router: every route, the middleware chain and the dashboard's static files.
public enum APIRouter {
    /// The routes fall in three groups, each with its own middleware inside the access log and the problem
    /// mapping: open routes (`/healthz`, `/readyz`, `/openapi.yaml`, `/metrics`, which checks its own token, and
    /// the dashboard) with none; `/v1/admin` with the admin token; the rest of `/v1` with a tenant's API key, its
    /// rate limit and its idempotency keys.
    ///
    /// - Parameters:
    ///   - publicDirectory: the folder served at `/` (the dashboard); nil serves none.
    ///   - openAPIDocument: the bytes of `openapi.yaml`, served at `/openapi.yaml`.
    public static func make(_ env: APIEnvironment, publicDirectory: String?, openAPIDocument: [UInt8]? = nil) -> Router {
        var router = Router()
        router.add(middleware: AccessLogMiddleware(writer: env.accessLogWriter))
        router.add(middleware: ProblemMiddleware())

        HealthRoutes.register(on: &router, env)
        if let metrics = env.metrics {
            router.observer = metrics
            MetricsRoutes.register(on: &router, env, metrics: metrics)
        }
        ContractRoutes.register(on: &router, document: openAPIDocument)
        if let publicDirectory { router.fallback = StaticFileResponder(root: publicDirectory) }

        router.group("/v1/admin") { admin in
            admin.add(middleware: AuthMiddleware.admin(env.credentials))
            AdminRoutes.register(on: &admin, env)
            if let moves = env.tenantMoves { TenantMoveRoutes.register(on: &admin, moves: moves) }
        }

        router.group("/v1") { v1 in
            v1.add(middleware: AuthMiddleware.tenant(env.credentials))
            if let moves = env.tenantMoves {
                v1.add(middleware: TenantFenceMiddleware(fences: moves.fences, credentials: env.credentials))
            }
            if let limiter = env.rateLimiter {
                v1.add(middleware: RateLimitMiddleware(limiter: limiter, credentials: env.credentials, metrics: env.metrics))
            }
            // Heavy work before the writes begin: outside the idempotency middleware's gate and transaction.
            v1.add(middleware: PreparationMiddleware([AppRoutes.preparation], pool: env.heavyWork))
            if let idempotency = env.idempotency {
                v1.add(middleware: IdempotencyMiddleware(idempotency: idempotency, devices: env.devices, wallClock: env.wallClock))
            }
            DeviceRoutes.register(on: &v1, env)
            ClockRoutes.register(on: &v1, env)
            AppRoutes.register(on: &v1, env)
            LifecycleRoutes.register(on: &v1, env)
            BackgroundTaskRoutes.register(on: &v1, env)
            TaskRequestRoutes.register(on: &v1, env)
            RunRoutes.register(on: &v1, env)
            PushRoutes.register(on: &v1, env)
            NotificationRoutes.register(on: &v1, env)
            URLSessionRoutes.register(on: &v1, env)
            ActivityRoutes.register(on: &v1, env)
            ScenarioRoutes.register(on: &v1, env)
            ForecastRoutes.register(on: &v1, env)
            EventRoutes.register(
                on: &v1, hub: env.events, store: env.events.store, prunedEvents: env.prunedEvents,
                movedIds: movedEventIds(env),
                refused: { env.metrics?.streamRefused($0) }
            ) { tenantId, deviceId in
                try env.devices.exists(deviceId, tenantId: tenantId)
            }
        }
        return router
    }

    /// How the event ids a tenant's clients know map to this shard's log and back; nil without moves.
    static func movedEventIds(_ env: APIEnvironment) -> MovedEventIds? {
        guard let moves = env.tenantMoves else { return nil }
        return MovedEventIds(
            here: { id, tenantId in try moves.eventIdAfterMoves(id, tenantId: tenantId) },
            original: { id, tenantId in try moves.originalEventId(id, tenantId: tenantId) })
    }

    /// The requests answered off the event loops, and the key they queue under (see
    /// `HTTPServerConfiguration.offloadKey`): every write of the API, since a write waits for the device service's
    /// lock and a SQLite commit. They queue by credential, so a client flooding writes takes its turn with every
    /// other client instead of holding the loops; reads, streams and the dashboard stay on the loops.
    public static func offloadKey(_ request: HTTPRequest) -> String? {
        switch request.method {
        case .get, .head, .options: return nil
        default: break
        }
        guard request.path.hasPrefix("/v1/") else { return nil }
        return request.headers["Authorization"] ?? ""
    }

    /// The server's upload admission (`HTTPServerConfiguration.uploadAdmission`): at most `maximumPerTenant`
    /// uploads of one tenant at once, more refused from their head with `429 tooManyUploads` (``UploadSlots``),
    /// each refusal held for `hold` before it is sent.
    public static func uploadAdmission(
        _ env: APIEnvironment, maximumPerTenant: Int, hold: Duration = .zero
    ) -> @Sendable (HTTPRequest) -> UploadAdmission {
        UploadSlots(maximumPerTenant: maximumPerTenant).admission(credentials: env.credentials, hold: hold)
    }

    /// Whether a request is an app upload (`POST /v1/devices/{deviceId}/apps`), whose body may be a whole `.ipa`,
    /// or a tenant's import (`POST /v1/admin/tenants/import`), whose body is its whole state, and so is allowed
    /// past the general body limit.
    ///
    /// Asked for the head of every request: compared byte by byte, without splitting the path into strings (a split
    /// was ~6,000 instructions a request, callgrind).
    public static func isUpload(_ method: HTTPMethod, _ path: String) -> Bool {
        guard method == .post else { return false }
        if path == TenantMoveRoutes.importPath { return true }  // a tenant's whole state
        // `/v1/devices/{deviceId}/apps`, the id not empty and one segment.
        let bytes = path.utf8, prefix = "/v1/devices/".utf8, suffix = "/apps".utf8
        guard bytes.count > prefix.count + suffix.count, bytes.starts(with: prefix), bytes.suffix(suffix.count).elementsEqual(suffix)
        else { return false }
        return !bytes.dropFirst(prefix.count).dropLast(suffix.count).contains(UInt8(ascii: "/"))
    }
}
