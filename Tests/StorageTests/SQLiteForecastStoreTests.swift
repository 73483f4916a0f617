import Emulation
import Foundation
import Testing
@testable import Storage

/// The tenants' forecasts: a finished one reads back as stored, one left running by a stopped service is failed
/// on the next start, a tenant keeps at most its newest 20, and a tenant's deletion takes its forecasts.
@Suite struct SQLiteForecastStoreTests {
    private static let app = ForecastApp(
        bundleId: "com.example.weather",
        infoPlist: ForecastInfoPlist(UIBackgroundModes: ["fetch"], BGTaskSchedulerPermittedIdentifiers: ["com.example.weather.refresh"]),
        atLaunch: ForecastLaunchActions(
            submit: [ForecastSubmission(kind: .appRefresh, identifier: "com.example.weather.refresh", earliestBeginSeconds: 900)],
            fetchInterval: .minimum))
    private static let request = ForecastRequest(seed: 3, devices: 6, days: 1, app: app)

    private func record(_ n: Int, tenantId: String = "ten_1") -> ForecastRecord {
        ForecastRecord(id: "fc_\(n)", tenantId: tenantId, request: Self.request, createdAt: date(1_767_225_600_000 + Int64(n)))
    }

    private func withStore(tenants: Int = 1, _ body: (SQLiteForecastStore, Database) throws -> Void) throws {
        try withDatabase { database throws in
            for n in 1...tenants {
                let (tenant, key) = makeTenant(n)
                try SQLiteTenantStore(database: database).createTenant(tenant, firstKey: key)
            }
            try body(SQLiteForecastStore(database: database), database)
        }
    }

    @Test func aFinishedForecastReadsBackAsStored_resultAndCSVIncluded() throws {
        let report = try Forecast.run(Self.request, threads: 2)
        try withStore { store, _ throws in
            var forecast = record(1)
            try store.insert(forecast, keepingAtMost: 20)
            #expect(try store.forecast(tenantId: "ten_1", id: "fc_1") == forecast)
            try store.updateProgress(tenantId: "ten_1", id: "fc_1", progress: 0.42)
            #expect(try store.forecast(tenantId: "ten_1", id: "fc_1")?.progress == 0.42)
            #expect(try store.csv(tenantId: "ten_1", id: "fc_1") == nil, "no CSV while it runs")

            forecast.state = .done
            forecast.progress = 1
            forecast.result = report.result
            forecast.devicesPerSecond = 1234.5
            forecast.finishedAt = date(1_767_225_660_000)
            #expect(try store.finish(forecast, csv: report.csv()))
            #expect(try store.forecast(tenantId: "ten_1", id: "fc_1") == forecast)
            #expect(try store.csv(tenantId: "ten_1", id: "fc_1") == report.csv())
            var listed = forecast
            listed.result = nil
            #expect(try store.forecasts(tenantId: "ten_1") == [listed], "lists leave the result out")
            try store.updateProgress(tenantId: "ten_1", id: "fc_1", progress: 0.5)
            #expect(try store.forecast(tenantId: "ten_1", id: "fc_1")?.progress == 1, "a finished forecast's progress stays")
        }
    }

    @Test func aForecastIsNotFoundUnderAnotherTenant() throws {
        try withStore(tenants: 2) { store, _ throws in
            try store.insert(record(1), keepingAtMost: 20)
            #expect(try store.forecast(tenantId: "ten_2", id: "fc_1") == nil)
            #expect(try store.forecasts(tenantId: "ten_2").isEmpty)
            #expect(try store.delete(tenantId: "ten_2", id: "fc_1") == false)
            #expect(try store.forecast(tenantId: "ten_1", id: "fc_1") != nil)
            #expect(try store.delete(tenantId: "ten_1", id: "fc_1"))
            #expect(try store.forecast(tenantId: "ten_1", id: "fc_1") == nil)
            var gone = record(1)
            gone.state = .done
            #expect(try store.finish(gone, csv: "x") == false, "finishing a deleted forecast stores nothing")
        }
    }

    @Test func aForecastRunningWhenTheServiceStoppedIsFailedOnReopen() throws {
        try withTemporaryPath { path throws in
            do {
                let database = try openDatabase(path: path)
                let (tenant, key) = makeTenant(1)
                try SQLiteTenantStore(database: database).createTenant(tenant, firstKey: key)
                let store = SQLiteForecastStore(database: database)
                try store.insert(record(1), keepingAtMost: 20)
                var done = record(2)
                try store.insert(done, keepingAtMost: 20)
                done.state = .done
                done.progress = 1
                done.finishedAt = date(1_767_225_700_000)
                try store.finish(done, csv: "device\r\n")
                database.close()
            }
            let database = try openDatabase(path: path)
            defer { database.close() }
            let store = SQLiteForecastStore(database: database)
            #expect(try store.failRunning(.serviceRestarted, at: date(1_767_225_800_000)) == 1)
            let failed = try #require(try store.forecast(tenantId: "ten_1", id: "fc_1"))
            #expect(failed.state == .failed)
            #expect(failed.failure == .serviceRestarted)
            #expect(failed.finishedAt == date(1_767_225_800_000))
            #expect(try store.forecast(tenantId: "ten_1", id: "fc_2")?.state == .done, "a finished one is left alone")
            #expect(try store.failRunning(.serviceRestarted, at: date(1_767_225_900_000)) == 0)
        }
    }

    @Test func aTenantKeepsAtMost20_theOldestFinishedGoesFirst() throws {
        try withStore(tenants: 2) { store, _ throws in
            try store.insert(record(0), keepingAtMost: 20)  // the oldest, still running: never dropped for a new one
            for n in 1...19 {
                var forecast = record(n)
                try store.insert(forecast, keepingAtMost: 20)
                forecast.state = n % 2 == 0 ? .done : .failed
                forecast.finishedAt = date(1_767_225_700_000)
                try store.finish(forecast, csv: nil)
            }
            try store.insert(record(100, tenantId: "ten_2"), keepingAtMost: 20)
            #expect(try store.forecasts(tenantId: "ten_1").count == 20)
            try store.insert(record(20), keepingAtMost: 20)
            let ids = try store.forecasts(tenantId: "ten_1").map(\.id)
            #expect(ids.count == 20)
            #expect(ids.first == "fc_20", "newest first")
            #expect(!ids.contains("fc_1"), "the oldest finished one went")
            #expect(ids.contains("fc_0"), "the running one stayed")
            #expect(try store.forecasts(tenantId: "ten_2").map(\.id) == ["fc_100"], "another tenant's are not counted")
        }
    }

    @Test func deletingATenantDeletesItsForecasts() throws {
        try withStore(tenants: 2) { store, database throws in
            try store.insert(record(1), keepingAtMost: 20)
            try store.insert(record(2, tenantId: "ten_2"), keepingAtMost: 20)
            #expect(try SQLiteTenantStore(database: database).deleteTenant(id: "ten_1"))
            #expect(try store.forecasts(tenantId: "ten_1").isEmpty)
            let rows = try database.read { try $0.scalar("SELECT count(*) FROM forecasts WHERE tenant_id = 'ten_1'", as: Int.self) }
            #expect(rows == 0)
            #expect(try store.forecasts(tenantId: "ten_2").count == 1)
        }
    }
}
