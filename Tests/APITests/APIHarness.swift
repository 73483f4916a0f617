import Foundation
import Logging
import Synchronization
import Storage
@testable import API
@testable import Service
@testable import Emulation
@testable import HTTPServer

/// The API in-process: the real router and SQLite stores on a fresh temporary database, called without sockets.
// @unchecked Sendable: every property is set once in `init`; the responder is called from many threads as the
// server calls it (concurrency tests do the same).
final class APIHarness: @unchecked Sendable {
    static let adminToken = "admin-secret-for-tests"
    let directory: URL
    let database: Database
    let tenants: SQLiteTenantStore
    let responder: any HTTPResponder
    let router: Router
    /// The idempotency settings the router runs with (their in-flight keys, to simulate a request in flight).
    let idempotency: Idempotency
    /// The wall clock the API reads, movable by tests (idempotency expiry).
    let wallClock = WallClockStub()
    /// The metrics the router reports to, wired as the service wires them (`GET /metrics`).
    let metrics = PrometheusMetrics()
    /// The device service behind the routes (to run commands side by side with requests).
    let devices: DeviceService
    /// The forecasts behind `/v1/forecasts` (small ones only: 2,000 device-days at most).
    let forecasts: ForecastService

    /// Tenant moves between shards: fences, exports, imports (wired as the service wires them).
    let moves: TenantMoves

    /// Where uploads are inspected, as in the service: threads of the lowest scheduling class.
    let heavyWork = HeavyWorkPool(threads: 1)

    init(maximumDevicesPerTenant: Int = 10_000, rateLimiter: RateLimiter? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgemu-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try Storage.openDatabase(path: directory.appendingPathComponent("test.sqlite").path)
        tenants = SQLiteTenantStore(database: database)
        let database = self.database
        let hub = EventHub(store: SQLiteEventStore(database: database), logger: Logger(label: "test"))
        idempotency = Idempotency(store: SQLiteIdempotencyStore(database: database))
        let idempotency = self.idempotency
        let metrics = self.metrics
        database.observeCommits { metrics.commitFinished(after: $0) }
        devices = DeviceService(
            store: SQLiteDeviceStore(database: database),
            publish: { events in
                metrics.eventsWritten(events.count)
                hub.publish(events)
            },
            maximumDevicesPerTenant: maximumDevicesPerTenant)
        var env = APIEnvironment(
            tenants: tenants, devices: devices,
            events: hub,
            credentials: Credentials(store: tenants, adminTokenHash: KeyHasher.sha256Hex(Self.adminToken)),
            wallClock: { [wallClock] in wallClock.now }, isReady: { database.ping() },
            idempotency: idempotency,
            prunedEvents: { [events = SQLiteEventStore(database: database)] tenantId, deviceId in
                try events.prunedRange(tenantId: tenantId, deviceId: deviceId).map {
                    PrunedEvents(lastPrunedId: $0.lastPrunedId, oldestHeldId: $0.oldestHeldId)
                }
            },
            rateLimiter: rateLimiter)
        env.metrics = metrics
        forecasts = ForecastService(
            store: SQLiteForecastStore(database: database), maximumDeviceDays: 2_000, threads: 2,
            publish: { hub.publish(forecastProgress: $0) })
        env.forecasts = forecasts
        heavyWork.start()
        env.heavyWork = heavyWork
        let moveStore = SQLiteTenantMoveStore(database: database)
        moves = TenantMoves(
            store: moveStore, fences: try TenantMoves.fences(of: moveStore), fenceTimeout: 5,
            imported: { [credentials = env.credentials] imported in
                if let ids = imported.eventIds { hub.skipImported(ids) }
                credentials.invalidate()
            })
        env.tenantMoves = moves
        router = APIRouter.make(env, publicDirectory: nil)
        responder = router.buildResponder()
    }

    deinit {
        forecasts.stop()
        heavyWork.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Answers a request as the server would, thrown errors included.
    func send(
        _ method: HTTPMethod, _ target: String, key: String? = nil, json: String? = nil,
        body: [UInt8]? = nil, headers: HTTPHeaders = HTTPHeaders()
    ) -> TestResponse {
        var headers = headers
        if let key { headers["Authorization"] = "Bearer \(key)" }
        var bytes: [UInt8] = body ?? []
        if let json {
            bytes = Array(json.utf8)
            if headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        }
        let request = HTTPRequest(method: method, target: target, headers: headers, body: bytes)
        let context = HTTPRequestContext(requestId: "test", logger: Logger(label: "test"))
        do {
            return TestResponse(try responder.respond(to: request, context: context))
        } catch let error as any HTTPResponseError {
            return TestResponse(error.response())
        } catch {
            return TestResponse(HTTPResponse(status: .internalServerError))
        }
    }

    /// The real HTTP server on a free loopback port, answering with this harness's router; `body` gets its port,
    /// and the server is stopped when it returns.
    func withServer<T>(eventLoops: Int = 1, _ body: (Int) throws -> T) throws -> T {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoopCount: eventLoops),
            responder: responder, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try server.start()
        defer {
            server.shutdown(gracePeriod: .seconds(1))
            server.waitUntilStopped()
        }
        return try body(server.localPort)
    }

    /// A new tenant and its API key, through the admin API.
    func makeTenant(_ name: String) throws -> (id: String, key: String) {
        let response = send(.post, "/v1/admin/tenants", key: Self.adminToken, json: #"{"name":"\#(name)"}"#)
        guard response.status == 201, let id = response.json["id"] as? String, let key = response.json["apiKey"] as? String
        else { throw HarnessError.unexpected(response.text) }
        return (id, key)
    }

    /// A fresh harness with one tenant and one device of it: the setup of most route suites.
    static func withDevice(tenant: String = "acme") throws -> (api: APIHarness, key: String, device: String) {
        let api = try APIHarness()
        let key = try api.makeTenant(tenant).key
        return (api, key, try api.makeDevice(key: key))
    }

    /// A new device of the tenant with `key`; answers its id.
    func makeDevice(key: String, json: String = #"{"name":"Test iPhone"}"#) throws -> String {
        let response = send(.post, "/v1/devices", key: key, json: json)
        guard response.status == 201, let id = response.json["id"] as? String else {
            throw HarnessError.unexpected(response.text)
        }
        return id
    }

    enum HarnessError: Error { case unexpected(String) }
}

/// A response with its body read as text and JSON.
struct TestResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    /// How long the server would hold the answer before sending it.
    var delay: Duration

    init(_ response: HTTPResponse) {
        status = response.status.code
        headers = response.headers
        delay = response.delay
        if case .bytes(let bytes) = response.body { body = bytes } else { body = [] }
    }

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
    var items: [[String: Any]] { json["items"] as? [[String: Any]] ?? [] }
    var problemCode: String? { json["code"] as? String }
    var errorFields: [String] { (json["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String } }
}

/// Real wall time plus an offset that a test can move forward (to let stored answers expire).
final class WallClockStub: Sendable {
    private let offset = Mutex<TimeInterval>(0)
    var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
