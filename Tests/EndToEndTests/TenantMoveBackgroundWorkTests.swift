import Foundation
import Glibc
import Testing

/// A tenant's move between two real executables (issue 30): what runs by itself — realtime clocks, forecasts — is
/// neither lost on the source nor left behind on the target.
@Suite(.serialized) struct TenantMoveBackgroundWorkTests {
    static let admin = LiveService.adminToken
    static let bundle = "com.example.weather"

    /// A tenant on `service` with its key.
    static func makeTenant(_ service: LiveService, _ name: String) throws -> (id: String, key: String) {
        let created = try service.client(key: admin).request("POST", "/v1/admin/tenants", json: #"{"name":"\#(name)"}"#)
        #expect(created.status == 201, "\(created.text)")
        return (try #require(created.json["id"] as? String), try #require(created.json["apiKey"] as? String))
    }

    /// Two services started, each on a database of its own: the source and the target of a move.
    static func twoShards() throws -> (source: LiveService, target: LiveService) {
        let source = try LiveService()
        let target = try LiveService()
        try source.start()
        try target.start()
        return (source, target)
    }

    /// The device's events of types starting with `type`.
    static func events(_ client: TestClient, _ device: String, type: String) throws -> [[String: Any]] {
        let page = try client.request("GET", "/v1/devices/\(device)/events?type=\(type)&limit=100")
        #expect(page.status == 200, "\(page.text)")
        return page.json["items"] as? [[String: Any]] ?? []
    }

    /// Fences, exports and imports the tenant, then deletes it from the source (the steps of `bgemu tenants move`).
    static func move(_ tenantId: String, from source: LiveService, to target: LiveService, beforeExport: () throws -> Void = {}) throws {
        let sourceAdmin = source.client(key: admin)
        #expect(try sourceAdmin.request("PUT", "/v1/admin/tenants/\(tenantId)/fence").status == 200)
        try beforeExport()
        let export = try sourceAdmin.request("GET", "/v1/admin/tenants/\(tenantId)/export")
        #expect(export.status == 200)
        let imported = try target.client(key: admin).request(
            "POST", "/v1/admin/tenants/import", body: export.body, headers: [("Content-Type", "application/json")])
        #expect(imported.status == 201, "\(imported.text)")
        #expect(try sourceAdmin.request("DELETE", "/v1/admin/tenants/\(tenantId)").status == 204)
    }

    /// A realtime clock is a write of its tenant's: the source's driver holds it while the tenant is fenced (else
    /// what fires after the export is lost with the source's copy), and the target drives the imported devices at
    /// once, not after its next restart.
    @Test func aMovedTenantsRealtimeClockWaitsOnTheFencedSourceAndRunsOnTheTargetAtOnce() throws {
        let (source, target) = try Self.twoShards()
        defer {
            source.stop()
            target.stop()
        }
        let tenant = try Self.makeTenant(source, "moving")
        let client = source.client(key: tenant.key)
        // At scale 10, the 30 s a forgotten background task has run out 3 s of wall time after going home.
        let device = try #require(
            try client.request("POST", "/v1/devices", json: #"{"name":"rt","clock":{"mode":"realtime","scale":10}}"#)
                .json["id"] as? String)
        let install = #"{"bundleId":"\#(Self.bundle)","infoPlist":{"UIBackgroundModes":["fetch"]}}"#
        #expect(try client.request("POST", "/v1/devices/\(device)/apps", json: install).status == 201)
        let app = "/v1/devices/\(device)/apps/\(Self.bundle)"
        #expect(try client.request("POST", "\(app)/launch").status == 200)
        #expect(try client.request("POST", "\(app)/background-tasks", json: #"{"name":"forgotten"}"#).status == 201)
        #expect(try client.request("POST", "\(app)/background").status == 200)
        let home = Date()

        try Self.move(tenant.id, from: source, to: target) {
            // Past the allowance's end in wall time, fenced: the source's driver must not fire it.
            Thread.sleep(forTimeInterval: max(0, 4.5 - Date().timeIntervalSince(home)))
            let held = try Self.events(client, device, type: "backgroundTask.expiring")
            #expect(held.isEmpty, "the fenced source's driver fired the expiry")
        }
        let moved = target.client(key: tenant.key)
        var expiring: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(15)
        while expiring.isEmpty, Date() < deadline {
            usleep(50_000)
            expiring = try Self.events(moved, device, type: "backgroundTask.expiring")
        }
        #expect(expiring.count == 1, "the target never drove the imported realtime clock")
        #expect(try moved.request("GET", app).json["state"] as? String == "notRunning")
    }

    /// A forecast running on the source when its tenant moves is `failed` on the target with `tenantMoved` (503:
    /// create it again), not `running` for ever.
    @Test func aForecastRunningDuringTheMoveIsFailedWithTenantMovedOnTheTarget() throws {
        let (source, target) = try Self.twoShards()
        defer {
            source.stop()
            target.stop()
        }
        let tenant = try Self.makeTenant(source, "forecasting")
        let client = source.client(key: tenant.key)
        // 1,000,000 device-days, the default limit: seconds of work, so still running when the move happens.
        let request = ForecastEndToEndTests.body(devices: 100_000, days: 10)
        let started = try client.request("POST", "/v1/forecasts", json: request)
        #expect(started.status == 202, "\(started.text)")
        let forecast = try #require(started.json["forecastId"] as? String)
        try Self.move(tenant.id, from: source, to: target) {
            let state = try client.request("GET", "/v1/forecasts/\(forecast)").json["state"] as? String
            #expect(state == "running")
        }
        let moved = try target.client(key: tenant.key).request("GET", "/v1/forecasts/\(forecast)")
        #expect(moved.status == 200)
        #expect(moved.json["state"] as? String == "failed")
        let error = moved.json["error"] as? [String: Any]
        #expect(error?["code"] as? String == "tenantMoved")
        #expect(error?["status"] as? Int == 503)
    }
}
