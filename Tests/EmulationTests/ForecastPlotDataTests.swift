import Foundation
import Testing
@testable import Emulation

/// The result's plot data (`ranWithinHours`, `runsPerDayHistogram`), recomputed from the per-device rows.
@Suite struct ForecastPlotDataTests {
    @Test func ranWithinHours_isTheCumulativeShareOfFirstRuns_endingAtTheShareThatRan() throws {
        let request = ForecastFixture.request(devices: 40, days: 2)
        let report = try Forecast.run(request, threads: 2)
        for kind in ["appRefresh", "fetch"] {
            let summary = try #require(kind == "appRefresh" ? report.result.appRefresh : report.result.fetch)
            #expect(summary.ranWithinHours.count == 24 * request.days + 1)
            let delays = report.devices.compactMap { $0.runs[kind]?.firstRunDelaySeconds }
            for (hour, share) in summary.ranWithinHours.enumerated() {
                let expected = Double(delays.filter { $0 <= Double(hour) * 3600 }.count) / Double(request.devices)
                #expect(abs(share - expected) < 0.0001, "\(kind) hour \(hour)")
            }
            #expect(zip(summary.ranWithinHours, summary.ranWithinHours.dropFirst()).allSatisfy { $0 <= $1 }, "never falls")
            #expect(abs(summary.ranWithinHours.last! - (1 - summary.devicesWithoutRun)) < 0.0001)
            #expect(abs(summary.ranWithinHours[1] - summary.devicesWithRunWithin["1h"]!) < 0.0001)
            #expect(abs(summary.ranWithinHours[4] - summary.devicesWithRunWithin["4h"]!) < 0.0001)
            #expect(abs(summary.ranWithinHours[24] - summary.devicesWithRunWithin["24h"]!) < 0.0001)
        }
    }

    @Test func runsPerDayHistogram_countsEveryDeviceOnceInEqualBinsUpToTheLargest() throws {
        let request = ForecastFixture.request(devices: 40, days: 2, population: ForecastFixture.ideal)
        let report = try Forecast.run(request, threads: 2)
        let summary = try #require(report.result.fetch)
        let bins = summary.runsPerDayHistogram
        let perDay = report.devices.map { Double($0.runs["fetch"]?.started ?? 0) / Double(request.days) }
        let top = try #require(perDay.max())
        #expect(top > 0, "the ideal population runs fetches")
        #expect(bins.count == ForecastHistogramBin.maximumBins)
        #expect(bins.map(\.devices).reduce(0, +) == request.devices)
        #expect(bins.first?.from == 0)
        #expect(bins.last?.to == top)
        for (bin, next) in zip(bins, bins.dropFirst()) { #expect(bin.to == next.from) }
        let widths = bins.map { $0.to - $0.from }
        #expect(widths.allSatisfy { abs($0 - top / 12) < 1e-9 }, "equal widths")
        for (n, bin) in bins.enumerated() {
            let last = n == bins.count - 1
            let inside = perDay.filter { $0 >= bin.from - 1e-12 && ($0 < bin.to - 1e-12 || (last && $0 <= bin.to)) }
            #expect(inside.count == bin.devices, "bin \(n)")
        }
    }

    @Test func runsPerDayHistogram_isOneBinFromZeroToOne_whenNoDeviceRan() throws {
        var population = ForecastPopulation.defaults
        population.lowPowerModeShare = 1
        population.lowPowerModeWhenLowShare = 0
        let request = ForecastFixture.request(devices: 20, days: 1, population: population)
        let summary = try #require(try Forecast.run(request, threads: 2).result.appRefresh)
        #expect(summary.devicesWithoutRun == 1)
        #expect(summary.runsPerDayHistogram == [ForecastHistogramBin(from: 0, to: 1, devices: 20)])
        #expect(summary.ranWithinHours == Array(repeating: 0, count: 25))
    }

    @Test func aValueOnTheUpperEdgeGoesInTheLastBin() {
        let bins = ForecastHistogramBin.bins([0, 1, 2, 3, 3])
        #expect(bins.count == 12)
        #expect(bins.last?.devices == 2)
        #expect(bins.first?.devices == 1)
        #expect(bins[4].devices == 1, "1 is the lower edge of the fifth bin of [0, 3]")
        #expect(bins[8].devices == 1, "2 is the lower edge of the ninth")
    }
}
