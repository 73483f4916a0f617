import Emulation
import Foundation
import Logging
import Storage
@testable import API
@testable import Service
@testable import HTTPServer
import Stores

/// The API in-process with the event routes registered, on a fresh database; events are recorded as the engine
/// will record them (in the device's transaction) and published to the hub.
final class EventTestHarness: Sendable {
    static let adminToken = "admin-secret-for-event-tests"
    let directory: URL
    let database: Database
    let tenants: SQLiteTenantStore
    let devices: SQLiteDeviceStore
    let events: SQLiteEventStore
    let hub: EventHub
    let responder: any HTTPResponder

    init(
        gapTimeout: Duration = .seconds(1), maximumStreams: Int = 16_384, maximumStreamsPerTenant: Int = 1024,
        metrics: PrometheusMetrics? = nil
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgemu-events-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = try Storage.openDatabase(path: directory.appendingPathComponent("test.sqlite").path)
        self.database = database
        tenants = SQLiteTenantStore(database: database)
        let devices = SQLiteDeviceStore(database: database)
        self.devices = devices
        events = SQLiteEventStore(database: database)
        hub = EventHub(
            store: events, gapTimeout: gapTimeout, maximumStreams: maximumStreams,
            maximumStreamsPerTenant: maximumStreamsPerTenant, logger: Logger(label: "test.events"))
        let hub = self.hub
        var env = APIEnvironment(
            tenants: tenants, devices: DeviceService(store: devices, publish: { hub.publish($0) }), events: hub,
            credentials: Credentials(store: tenants, adminTokenHash: KeyHasher.sha256Hex(Self.adminToken)),
            isReady: { database.ping() },
            prunedEvents: { [events] tenantId, deviceId in
                try events.prunedRange(tenantId: tenantId, deviceId: deviceId).map {
                    PrunedEvents(lastPrunedId: $0.lastPrunedId, oldestHeldId: $0.oldestHeldId)
                }
            })
        env.metrics = metrics
        responder = APIRouter.make(env, publicDirectory: nil).buildResponder()
    }

    deinit {
        hub.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The response to a request, errors answered as the server answers them.
    func respond(_ method: HTTPMethod, _ target: String, key: String? = nil, json: String? = nil,
                 headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        if let key { headers["Authorization"] = "Bearer \(key)" }
        var body: [UInt8] = []
        if let json {
            body = Array(json.utf8)
            headers["Content-Type"] = "application/json"
        }
        let request = HTTPRequest(method: method, target: target, headers: headers, body: body)
        let context = HTTPRequestContext(requestId: "test", logger: Logger(label: "test"))
        do {
            return try responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            return error.response()
        } catch {
            return HTTPResponse(status: .internalServerError)
        }
    }

    func send(_ method: HTTPMethod, _ target: String, key: String? = nil, json: String? = nil,
              headers: HTTPHeaders = HTTPHeaders()) -> TestResponse {
        TestResponse(respond(method, target, key: key, json: json, headers: headers))
    }

    /// Opens a stream as the server would: the response, and its body started on a recording writer.
    func openStream(_ target: String, key: String?, headers: HTTPHeaders = HTTPHeaders(),
                    writer: RecordingStreamWriter = RecordingStreamWriter()) -> (response: HTTPResponse, writer: RecordingStreamWriter) {
        var headers = headers
        if headers["Accept"] == nil { headers["Accept"] = "text/event-stream" }
        let response = respond(.get, target, key: key, headers: headers)
        if case .stream(let stream) = response.body { stream.start(writer) }
        return (response, writer)
    }

    func makeTenant(_ name: String) throws -> (id: String, key: String) {
        let response = send(.post, "/v1/admin/tenants", key: Self.adminToken, json: #"{"name":"\#(name)"}"#)
        guard response.status == 201, let id = response.json["id"] as? String, let key = response.json["apiKey"] as? String
        else { throw HarnessError.unexpected(response.text) }
        return (id, key)
    }

    /// A device stored directly, without the `device.created` event the API would record, so that the tests
    /// decide every event id themselves.
    func makeDevice(key: String, name: String = "Test iPhone") throws -> String {
        guard let owner = try tenants.activeKey(hash: KeyHasher.sha256Hex(key)) else { throw HarnessError.unexpected("no key") }
        let device = Device(
            id: SecretGenerator.newID("dev"), tenantId: owner.tenant.id, name: name, createdAt: Date())
        try devices.insert(device)
        return device.id
    }

    /// Commits `events` on the device (with its document, in one transaction) and publishes them.
    @discardableResult
    func record(_ events: [EmulationEvent], deviceId: String, tenantId: String) throws -> [RecordedEvent] {
        guard let device = try devices.device(id: deviceId, tenantId: tenantId),
            let recorded = try devices.update(device, appending: events, recordedAt: Date())
        else { throw HarnessError.unexpected("no device \(deviceId)") }
        hub.publish(recorded)
        return recorded
    }

    enum HarnessError: Error { case unexpected(String) }
}
