import Testing
@testable import Emulation

@Suite struct ForecastMonotonicTests {
    @Test func R25_raisingForceQuitShareNeverRaisesThe24HourRunShare() throws {
        var shares: [Double] = []
        var perDevice: [[Int]] = []
        for forceQuitShare in [0, 0.25, 0.5, 0.75, 1.0] {
            var population = ForecastPopulation.defaults
            population.forceQuitShare = forceQuitShare
            let report = try Forecast.run(ForecastFixture.request(seed: 11, devices: 30, population: population), threads: 2)
            shares.append(try #require(report.result.appRefresh?.devicesWithRunWithin["24h"]))
            perDevice.append(report.devices.map { $0.runs["appRefresh"]?.started ?? 0 })
        }
        #expect(shares == shares.sorted(by: >))
        #expect(shares.first! > shares.last!)
        #expect(shares.last == 0)
        // Device by device too: raising the share only turns more people into force-quitters.
        for (lower, higher) in zip(perDevice, perDevice.dropFirst()) {
            #expect(zip(lower, higher).allSatisfy { $0 == $1 || $1 == 0 })
        }
    }
}
