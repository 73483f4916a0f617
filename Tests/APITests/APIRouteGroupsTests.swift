import Foundation
import Logging
import Testing
@testable import API
@testable import Service
@testable import HTTPServer

/// The API's shape as route groups: open routes with no middleware of their own, `/v1/admin` behind the admin
/// token, the rest of `/v1` behind a tenant's key, its rate limit and its idempotency keys; and a path no route
/// takes is judged by the group it lies under, as a route there would be.
@Suite struct APIRouteGroupsTests {
    @Test func aPathNoRouteTakesIsAnsweredByTheGroupItLiesUnder() throws {
        let api = try APIHarness()
        let key = try api.makeTenant("acme").key
        let admin = APIHarness.adminToken
        // `/v1`: a tenant's key, not the admin token.
        #expect(api.send(.get, "/v1/nowhere").status == 401)
        #expect(api.send(.get, "/v1/nowhere", key: admin).status == 401)
        #expect(api.send(.get, "/v1/nowhere", key: key).status == 404)
        #expect(api.send(.get, "/v1", key: key).status == 404)
        #expect(api.send(.get, "/v1/%61dmin/tenants", key: key).status == 404, "not the admin group: its encoded name")
        // `/v1/admin`: the admin token, not a tenant's key.
        #expect(api.send(.get, "/v1/admin/nowhere", key: key).status == 401)
        #expect(api.send(.get, "/v1/admin/nowhere", key: admin).status == 404)
        #expect(api.send(.put, "/v1/admin/tenants", key: key).status == 401)
        #expect(api.send(.put, "/v1/admin/tenants", key: admin).status == 405)
        // Open: nothing.
        #expect(api.send(.get, "/nowhere").status == 404)
        #expect(api.send(.post, "/healthz").status == 405)
    }

    @Test func onlyTheTenantGroupSpendsATenantsRate() throws {
        let limiter = RateLimiter(policy: RateLimitPolicy(rate: 1, burst: 1)!, clock: ManualClock().function)
        let api = try APIHarness(rateLimiter: limiter)
        let key = try api.makeTenant("acme").key
        for _ in 0..<3 {
            #expect(api.send(.get, "/v1/admin/tenants", key: APIHarness.adminToken).status == 200)
            #expect(api.send(.get, "/v1/admin/nowhere", key: APIHarness.adminToken).status == 404)
            #expect(api.send(.get, "/healthz", key: key).status == 200)
        }
        #expect(api.send(.get, "/v1/nowhere", key: key).status == 404, "under /v1: it takes the token")
        #expect(api.send(.get, "/v1/devices", key: key).status == 429)
    }

    @Test func theAdminGroupIgnoresIdempotencyKeys() throws {
        let api = try APIHarness()
        var headers = HTTPHeaders()
        headers[Idempotency.header] = "same-key"
        let admin = APIHarness.adminToken
        let first = api.send(.post, "/v1/admin/tenants", key: admin, json: #"{"name":"acme"}"#, headers: headers)
        let second = api.send(.post, "/v1/admin/tenants", key: admin, json: #"{"name":"acme"}"#, headers: headers)
        #expect(first.status == 201)
        #expect(second.status == 409, "not replayed: an admin answer carries an API key in clear")
        #expect(second.headers[Idempotency.replayedHeader] == nil)
    }

    /// A handler that asks for a parameter its pattern does not bind is a defect of the route table: the API
    /// answers it as the contract answers every defect, a `500` problem without detail, and logs which route.
    @Test func aHandlerAskingForAParameterItsPatternDoesNotBindIsALogged500Problem() throws {
        let store = RecordingLogHandler.Store()
        var router = Router()
        router.add(middleware: ProblemMiddleware())
        router.group("/v1") { v1 in
            v1.get("/devices/{id}") { _, context in .text(try context.parameters.require("deviceId")) }
        }
        let context = HTTPRequestContext(requestId: "test", logger: Logger(label: "test") { _ in RecordingLogHandler(store: store) })
        let problem = #expect(throws: HTTPProblem.self) {
            try router.buildResponder().respond(to: HTTPRequest(method: .get, target: "/v1/devices/d1"), context: context)
        }
        #expect(problem?.status == .internalServerError)
        #expect(problem?.code == "routeParameterMissing")
        #expect(problem?.detail == nil)
        let logged = store.all.filter { $0.level == .error }
        #expect(logged.count == 1)
        #expect(logged.first?.metadata?["route"] == "/v1/devices/{id}")
        #expect(logged.first?.metadata?["error"] == "\(MissingRouteParameter(name: "deviceId", bound: ["id"]))")
    }
}

/// A tenant's requests are logged with its id (`tenant` metadata, added by the key check).
@Suite struct TenantLogMetadataTests {
    @Test func theAccessLogLineOfATenantsRequestCarriesItsId() throws {
        let api = try APIHarness()
        let tenant = try api.makeTenant("acme")
        let device = try api.makeDevice(key: tenant.key)
        let store = RecordingLogHandler.Store()
        let context = HTTPRequestContext(requestId: "r1", logger: Logger(label: "test") { _ in RecordingLogHandler(store: store) })
        var headers = HTTPHeaders()
        headers["Authorization"] = "Bearer \(tenant.key)"
        let response = try api.responder.respond(
            to: HTTPRequest(method: .get, target: "/v1/devices/\(device)", headers: headers), context: context)
        #expect(response.status == .ok)
        let line = try #require(store.all.first { "\($0.message)".hasPrefix("GET /v1/devices/") })
        #expect(line.metadata?["tenant"] == .string(tenant.id))
        #expect(line.metadata?["request-id"] == .string("r1"))
    }
}

/// A `LogHandler` keeping every event in memory.
struct RecordingLogHandler: LogHandler {
    /// `@unchecked Sendable`: `events` is only touched while holding `lock`.
    final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [LogEvent] = []
        func append(_ event: LogEvent) { lock.withLock { events.append(event) } }
        var all: [LogEvent] { lock.withLock { events } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.metadata = metadata.merging(event.metadata ?? [:]) { _, new in new }
        store.append(event)
    }
}
