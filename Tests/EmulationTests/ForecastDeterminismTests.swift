import Foundation
import Testing
@testable import Emulation

@Suite struct ForecastDeterminismTests {
    private func bytes(_ report: ForecastReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(report.result) + encoder.encode(report.devices)
    }

    @Test func sameSeedGivesTheSameBytesOnOneThreadAndTwo() throws {
        let request = ForecastFixture.request(pushes: [ForecastPushSchedule(everyMinutes: 120)])
        let one = try Forecast.run(request, threads: 1)
        let two = try Forecast.run(request, threads: 2)
        #expect(try bytes(one) == bytes(two))
        #expect(one.devices.map(\.device) == Array(0..<40))
    }

    @Test func aDeviceIsTheSameWhateverTheDeviceCount() throws {
        let small = try Forecast.run(ForecastFixture.request(devices: 5), threads: 2)
        let large = try Forecast.run(ForecastFixture.request(devices: 12), threads: 2)
        #expect(small.devices == Array(large.devices.prefix(5)))
    }

    @Test func anotherSeedGivesOtherPeople() throws {
        let a = (0..<20).map { Forecast.person(ForecastFixture.request(seed: 1), device: $0) }
        let b = (0..<20).map { Forecast.person(ForecastFixture.request(seed: 2), device: $0) }
        #expect(a != b)
    }

    @Test func progressRisesToOneAndCancellationStops() throws {
        let seen = ProgressLog()
        _ = try Forecast.run(ForecastFixture.request(devices: 10), threads: 2, progress: { seen.add($0) })
        #expect(seen.values == seen.values.sorted())
        #expect(seen.values.last == 1)
        #expect(throws: CancellationError.self) {
            try Forecast.run(ForecastFixture.request(devices: 10), threads: 2, isCancelled: { true })
        }
    }
}

/// Progress values as they arrive.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Double] = []
    func add(_ value: Double) { lock.withLock { stored.append(value) } }
    var values: [Double] { lock.withLock { stored } }
}
