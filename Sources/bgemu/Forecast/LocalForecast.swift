import Emulation
import Foundation

/// `--shard i/K`: which part of the fleet this worker computes.
struct ForecastShardOption: Equatable {
    var index: Int
    var count: Int

    init(_ text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (0..<count).contains(index) else {
            throw CommandFailure.local("--shard must be i/K with 0 <= i < K (0/4, 3/4), not \"\(text)\"")
        }
        self.index = index
        self.count = count
    }
}

/// Forecasts computed here, without a service: a part of the fleet (`--shard`), and the parts merged.
enum LocalForecast {
    /// Runs part `shard` of the request in `body` on every processor this process may use, writes it to `out` (or
    /// standard output) as JSON, and tells standard error how fast each worker went.
    static func runShard(_ body: [UInt8], _ shard: ForecastShardOption, out: String?) throws {
        let request: ForecastRequest
        do { request = try JSONDecoder().decode(ForecastRequest.self, from: Data(body)) } catch let error as EmulationError {
            throw CommandFailure.local("the forecast request is refused: \(describe(error))")
        } catch {
            throw CommandFailure.local("the forecast request cannot be read: \(error)")
        }
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let clock = ContinuousClock()
        let started = clock.now
        let part: ForecastShard
        do { part = try Forecast.runShard(request, shard: shard.index, of: shard.count, threads: threads) } catch let error as EmulationError {
            throw CommandFailure.local("the forecast request is refused: \(describe(error))")
        }
        let seconds = max((clock.now - started) / .seconds(1), 1e-9)
        let deviceDays = Double(part.devices.count * request.days)
        let bytes = try encoder.encode(part) + Data("\n".utf8)
        if let out {
            guard FileManager.default.createFile(atPath: out, contents: bytes) else { throw CommandFailure.local("cannot write \(out)") }
        } else {
            FileHandle.standardOutput.write(bytes)
        }
        Terminal.error(String(
            format: "forecast part %d/%d: %d devices × %d days in %.2f s, %.0f device-days/s per worker (%d workers)",
            shard.index, shard.count, part.devices.count, request.days, seconds, deviceDays / seconds / Double(threads), threads))
    }

    /// The parts in `files`, merged: the whole forecast's report.
    static func merge(_ files: [String]) throws -> ForecastReport {
        let parts = try files.map { file -> ForecastShard in
            let bytes = try LocalFile.read(file, what: "the forecast part")
            do { return try JSONDecoder().decode(ForecastShard.self, from: Data(bytes)) } catch {
                throw CommandFailure.local("\(file) is not a forecast part of `bgemu forecast --shard`: \(error)")
            }
        }
        do { return try Forecast.merge(parts) } catch let error as EmulationError {
            throw CommandFailure.local("the parts cannot be merged: \(describe(error))")
        }
    }

    /// `field: message; …` of a refusal.
    static func describe(_ error: EmulationError) -> String {
        if case .invalid(let issues) = error { return issues.map { "\($0.field): \($0.message)" }.joined(separator: "; ") }
        return "\(error)"
    }

    /// Keys sorted and slashes as they are, as the service writes its answers.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
