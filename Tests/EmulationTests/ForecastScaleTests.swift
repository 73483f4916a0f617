import Foundation
import Testing
@testable import Emulation

/// The forecast at the size, for measuring (not timed): run in release with
/// `BGEMU_FORECAST_DEVICES=10000 swift test -c release --filter ForecastScaleTests`; it prints the seconds, the
/// device-days per second, the result and the first two device rows. Off unless the variable is set, so the suite stays fast.
@Suite struct ForecastScaleTests {
    static let devices = ProcessInfo.processInfo.environment["BGEMU_FORECAST_DEVICES"].flatMap(Int.init)

    @Test(.enabled(if: devices != nil)) func refreshAndFetchAppOverSevenDays() throws {
        let devices = try #require(Self.devices)
        let days = ProcessInfo.processInfo.environment["BGEMU_FORECAST_DAYS"].flatMap(Int.init) ?? 7
        let pushMinutes = ProcessInfo.processInfo.environment["BGEMU_FORECAST_PUSH_MINUTES"].flatMap(Double.init)
        let request = ForecastFixture.request(
            seed: 2026, devices: devices, days: days, pushes: pushMinutes.map { [ForecastPushSchedule(everyMinutes: $0)] } ?? [])
        let clock = ContinuousClock()
        var report: ForecastReport?
        let elapsed = try clock.measure { report = try Forecast.run(request, threads: 2) }
        let finished = try #require(report)
        let result = finished.result
        #expect(result.devices == devices)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        print("forecast: \(devices) devices × \(days) days in \(seconds) s: \(Double(devices * days) / seconds) device-days/s")
        print(String(decoding: try encoder.encode(result), as: UTF8.self))
        encoder.outputFormatting = [.sortedKeys]
        for row in finished.devices.prefix(2) { print(String(decoding: try encoder.encode(row), as: UTF8.self)) }
    }
}
