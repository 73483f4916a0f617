import Emulation
import Foundation
import HTTPServer
import Service
import Stores

/// What the API layer needs from the rest of the service: the stores, the credentials and the wall clock.
public struct APIEnvironment: Sendable {
    public var tenants: any TenantStore
    public var devices: DeviceService
    /// The live fan-out of committed events, and the log it replays from.
    public var events: EventHub
    public var credentials: Credentials
    /// Wall-clock time, for `createdAt` stamps and realtime clocks.
    public var wallClock: @Sendable () -> Date
    /// Whether the database answers (for `/readyz`).
    public var isReady: @Sendable () -> Bool
    /// Where answers to requests with an `Idempotency-Key` are kept; nil ignores the header.
    public var idempotency: Idempotency?
    /// What the event retention pruned, for the `410` of a page or resume from before it; nil: nothing ever is.
    public var prunedEvents: PrunedEventsLookup?
    /// Each tenant's request rate; nil: no limit. Its `refusals` counts the `429 rateLimited` answers.
    public var rateLimiter: RateLimiter?
    /// The service's metrics; when set, every request is counted and `GET /metrics` answers.
    public var metrics: PrometheusMetrics? = nil
    /// The fleet forecasts; nil: no `/v1/forecasts` routes.
    public var forecasts: ForecastService? = nil
    /// Where the heavy part of requests runs (an upload's inspection, see ``RoutePreparation``); nil: on the
    /// request's own thread.
    public var heavyWork: HeavyWorkPool? = nil
    /// This instance's id as one shard of several (`/healthz` says it); nil: not a shard.
    public var shardId: String? = nil
    /// Moving tenants between shards (fence, export, import); nil: no such routes and no fence on writes.
    public var tenantMoves: TenantMoves? = nil
    /// Writes the access log's lines in the service's own format (nil: through the request's logger).
    public var accessLogWriter: (any AccessLogWriter)? = nil
    /// Whether Litestream replicates this instance's database (`serve --replicated`): `/healthz` says so.
    public var replicated = false
    /// The last encoded body of each device read, reused while the device's stamp is equal (see ``EncodedBodyCache``).
    let deviceBodies = EncodedBodyCache<DeviceBody.Stamp>(limit: 4_096)

    public init(
        tenants: any TenantStore, devices: DeviceService, events: EventHub, credentials: Credentials,
        wallClock: @escaping @Sendable () -> Date = { Date() }, isReady: @escaping @Sendable () -> Bool,
        idempotency: Idempotency? = nil, prunedEvents: PrunedEventsLookup? = nil, rateLimiter: RateLimiter? = nil
    ) {
        self.tenants = tenants
        self.devices = devices
        self.events = events
        self.credentials = credentials
        self.wallClock = wallClock
        self.isReady = isReady
        self.idempotency = idempotency
        self.prunedEvents = prunedEvents
        self.rateLimiter = rateLimiter
    }

    /// Wall-clock milliseconds since 1970.
    /// Tenants and their keys: a revoked key or a removed tenant is forgotten by the credentials' cache, and a removed
    /// tenant's cached devices, running forecast and open event streams go with its rows.
    var tenantService: TenantService {
        TenantService(
            store: tenants, wallClock: wallClock, keysChanged: { [credentials] in credentials.invalidate() },
            tenantRemoved: { [devices, forecasts, events] id in
                devices.forgetTenant(id)
                forecasts?.forgetTenant(id)
                events.endStreams(tenantId: id)
            })
    }

    var wallMilliseconds: Int64 { Int64((wallClock().timeIntervalSince1970 * 1000).rounded()) }
}
