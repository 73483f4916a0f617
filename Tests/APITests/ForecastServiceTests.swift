import Dispatch
import Emulation
import Foundation
import Service
import Storage
import Testing
import Stores

/// The forecast runner in process: a deleted forecast's workers stop, forecasts of all tenants take turns, and a
/// tenant may start its next forecast as soon as its last is done.
@Suite(.serialized) struct ForecastServiceTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgemu-forecasts-\(UUID().uuidString)")

    private func service(concurrent: Int = 1) throws -> (ForecastService, Database) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = try Storage.openDatabase(path: directory.appendingPathComponent("f.sqlite").path)
        let tenants = SQLiteTenantStore(database: database)
        for name in ["a", "b"] {
            let tenant = Tenant(id: "ten_\(name)", name: name, createdAt: Date())
            try tenants.createTenant(tenant, firstKey: KeyFactory.record(for: "key-\(name)-0123456789abcdef", tenantId: tenant.id, at: Date()))
        }
        let service = ForecastService(
            store: SQLiteForecastStore(database: database), maximumDeviceDays: 10_000_000, threads: 2,
            concurrentForecasts: concurrent)
        return (service, database)
    }

    private static func request(devices: Int, days: Int = 7) -> ForecastRequest {
        ForecastRequest(
            seed: 1, devices: devices, days: days,
            app: ForecastApp(
                bundleId: "com.example.weather",
                infoPlist: ForecastInfoPlist(UIBackgroundModes: ["fetch"]),
                atLaunch: ForecastLaunchActions(fetchInterval: .minimum)))
    }

    /// Waits for `condition` up to `seconds`; answers whether it came.
    private static func eventually(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(10_000)
        }
        return try condition()
    }

    @Test func deletingARunningForecastStopsItsWorkers() throws {
        let (forecasts, database) = try service()
        defer { forecasts.stop(); database.close(); try? FileManager.default.removeItem(at: directory) }
        let big = try forecasts.start(Self.request(devices: 10_000), tenantId: "ten_a")  // a minute of work or more
        #expect(Self.eventually(60) { (try? forecasts.forecast(tenantId: "ten_a", id: big.id))??.progress ?? 0 > 0 })
        #expect(try forecasts.delete(tenantId: "ten_a", id: big.id))
        let idle = DispatchSemaphore(value: 0)
        Thread.detachNewThread { forecasts.waitUntilIdle(); idle.signal() }
        #expect(idle.wait(timeout: .now() + 60) == .success, "the deleted forecast's workers kept running")
        #expect(try forecasts.forecast(tenantId: "ten_a", id: big.id) == nil)
    }

    @Test func forecastsOfTwoTenantsTakeTurns_theSecondWaitsAtNoProgressUntilTheFirstEnds() throws {
        let (forecasts, database) = try service(concurrent: 1)
        defer { forecasts.stop(); database.close(); try? FileManager.default.removeItem(at: directory) }
        let first = try forecasts.start(Self.request(devices: 10_000), tenantId: "ten_a")
        #expect(Self.eventually(60) { (try? forecasts.forecast(tenantId: "ten_a", id: first.id))??.progress ?? 0 > 0 })
        let second = try forecasts.start(Self.request(devices: 20, days: 1), tenantId: "ten_b")
        usleep(500_000)
        let waiting = try #require(try forecasts.forecast(tenantId: "ten_b", id: second.id))
        #expect(waiting.state == .running && waiting.progress == 0)
        #expect(try forecasts.delete(tenantId: "ten_a", id: first.id))
        #expect(try Self.eventually(60) { try forecasts.forecast(tenantId: "ten_b", id: second.id)?.state == .done })
    }

    @Test func aTenantMayStartItsNextForecastAsSoonAsItsLastIsDone() throws {
        let (forecasts, database) = try service()
        defer { forecasts.stop(); database.close(); try? FileManager.default.removeItem(at: directory) }
        for _ in 0..<5 {
            let record = try forecasts.start(Self.request(devices: 10, days: 1), tenantId: "ten_a")
            #expect(try Self.eventually(60) { try forecasts.forecast(tenantId: "ten_a", id: record.id)?.state == .done })
        }
    }
}
