import Testing
@testable import Emulation

/// The extremes a forecast must respect (R18, R25, R26).
@Suite struct ForecastExtremeTests {
    @Test func R18_everyDeviceInLowPowerModeRunsNoRefreshAndWhyNotNamesLowPowerMode() throws {
        var population = ForecastFixture.ideal
        population.lowPowerModeShare = 1
        let report = try Forecast.run(ForecastFixture.request(population: population), threads: 2)
        let refresh = try #require(report.result.appRefresh)
        let fetch = try #require(report.result.fetch)
        #expect(report.devices.allSatisfy { $0.runs["appRefresh"]?.started == 0 && $0.runs["fetch"]?.started == 0 })
        #expect(refresh.devicesWithRunWithin["24h"] == 0)
        #expect(refresh.devicesWithoutRun == 1)
        #expect(refresh.whyNot == ["lowPowerModeOff": 1])
        #expect(fetch.whyNot == ["lowPowerModeOff": 1])
    }

    @Test func R18_everyDeviceSwitchOffIsChargedToTheSwitch() throws {
        var population = ForecastFixture.ideal
        population.backgroundAppRefreshOffShare = 1
        let report = try Forecast.run(ForecastFixture.request(devices: 10, population: population), threads: 2)
        #expect(report.result.appRefresh?.whyNot == ["backgroundAppRefreshDevice": 1])
    }

    @Test func R25_everyDeviceChargingOnWiFiWithFrequentUseNearlyAllRunWithin24Hours() throws {
        let report = try Forecast.run(ForecastFixture.request(population: ForecastFixture.ideal), threads: 2)
        let refresh = try #require(report.result.appRefresh)
        let fetch = try #require(report.result.fetch)
        #expect(try #require(refresh.devicesWithRunWithin["24h"]) >= 0.95)
        #expect(try #require(fetch.devicesWithRunWithin["24h"]) >= 0.95)
        #expect(refresh.runsPerDevicePerDay.mean > 1)
        #expect(refresh.expiredShare == 0)
    }

    @Test func R5_everyoneForceQuittingRunsNothingAndIsChargedToTheForceQuit() throws {
        var population = ForecastFixture.ideal
        population.forceQuitShare = 1
        let report = try Forecast.run(ForecastFixture.request(devices: 10, population: population), threads: 2)
        #expect(report.result.appRefresh?.devicesWithoutRun == 1)
        #expect(report.result.appRefresh?.whyNot == ["notForceQuit": 1])
    }

    @Test func R31_pushesToForceQuitAppsAreDroppedAndToOthersDeliveredOrDeferred() throws {
        var population = ForecastFixture.ideal
        population.forceQuitShare = 1
        let quitting = try Forecast.run(
            ForecastFixture.request(devices: 5, population: population, pushes: [ForecastPushSchedule(everyMinutes: 60)]), threads: 2)
        let pushes = try #require(quitting.result.pushes)
        #expect(pushes.sent > 0)
        #expect(pushes.dropped > 0.9)  // only the pushes during a session reach the app
        let ideal = try Forecast.run(
            ForecastFixture.request(devices: 5, population: ForecastFixture.ideal, pushes: [ForecastPushSchedule(everyMinutes: 60)]),
            threads: 2)
        let delivered = try #require(ideal.result.pushes)
        #expect(delivered.dropped == 0)
        #expect(delivered.deliveredAtOnce + delivered.deliveredLater + delivered.coalesced + delivered.pending > 0.999)
    }
}
