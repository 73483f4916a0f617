import Foundation

/// One worker's part of a forecast (issue 30): the devices `shard`, `shard + of`, `shard + 2 × of`, … of the request,
/// each device's outcome as it would be in the whole forecast (a device depends only on the request and its index).
/// ``Forecast/merge(_:)`` of all `of` parts gives the forecast of the whole fleet, byte for byte.
public struct ForecastShard: Sendable, Codable, Equatable {
    /// One device's outcome: its CSV row and the delays of its delivered pushes.
    public struct DeviceOutcome: Sendable, Codable, Equatable {
        public var index: Int
        public var row: ForecastDeviceRow
        public var pushDelays: [Int64]
    }

    public var request: ForecastRequest
    /// Which part (0-based) …
    public var shard: Int
    /// … of how many.
    public var of: Int
    /// The part's devices, in index order.
    public var devices: [DeviceOutcome]
}

extension Forecast {
    /// Runs part `shard` of `count` of the forecast over `threads` threads: the devices whose index is `shard` modulo
    /// `count`. An invalid request, or a part that is not one of `count`, throws `EmulationError.invalid`.
    public static func runShard(_ request: ForecastRequest, shard: Int, of count: Int, threads: Int = 2) throws -> ForecastShard {
        let issues = request.validate()
        guard issues.isEmpty else { throw EmulationError.invalid(issues) }
        guard count >= 1, (0..<count).contains(shard) else {
            throw EmulationError.invalid([FieldIssue("shard", "must be i/K with 0 <= i < K, not \(shard)/\(count)")])
        }
        let plan = try ForecastPlan(request)
        let indices = Array(stride(from: shard, to: request.devices, by: count))
        let results = ShardResults(count: indices.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, indices.count))) { _ in
            while let slot = results.claim() {
                let outcome = ForecastDeviceSimulation.run(plan, device: indices[slot])
                results.store(ForecastShard.DeviceOutcome(index: indices[slot], row: outcome.row, pushDelays: outcome.pushDelays), at: slot)
            }
        }
        return ForecastShard(request: request, shard: shard, of: count, devices: results.all)
    }

    /// The whole forecast from its `of` parts (in any order): the same report as ``run(_:threads:progress:isCancelled:workerStart:)``
    /// of the request, byte for byte. Parts of another request, or a part missing or given twice, throw
    /// `EmulationError.invalid`.
    public static func merge(_ shards: [ForecastShard]) throws -> ForecastReport {
        guard let first = shards.first else { throw EmulationError.invalid([FieldIssue("shards", "give at least one part")]) }
        let count = first.of
        var issues: [FieldIssue] = []
        if shards.contains(where: { $0.request != first.request }) { issues.append(FieldIssue("shards", "the parts are of different requests")) }
        if shards.contains(where: { $0.of != count }) { issues.append(FieldIssue("shards", "the parts split the fleet differently")) }
        let seen = shards.map(\.shard)
        if Set(seen).count != seen.count { issues.append(FieldIssue("shards", "a part is given twice")) }
        let missing = (0..<count).filter { !seen.contains($0) }
        if !missing.isEmpty { issues.append(FieldIssue("shards", "parts missing: " + missing.map { "\($0)/\(count)" }.joined(separator: ", "))) }
        guard issues.isEmpty else { throw EmulationError.invalid(issues) }
        let devices = shards.flatMap(\.devices).sorted { $0.index < $1.index }
        guard devices.map(\.index) == Array(0..<first.request.devices) else {
            throw EmulationError.invalid([FieldIssue("shards", "the parts do not hold each device of the fleet once")])
        }
        let plan = try ForecastPlan(first.request)
        let rows = devices.map(\.row)
        let result = ForecastResult(first.request, kinds: plan.kinds, rows: rows, pushDelays: devices.flatMap(\.pushDelays))
        return ForecastReport(result: result, devices: rows)
    }
}

/// The part's outcomes, filled by the worker threads under a lock.
private final class ShardResults: @unchecked Sendable {
    // @unchecked Sendable: `next` and `outcomes` are behind `lock`.
    private let lock = NSLock()
    private var next = 0
    private var outcomes: [ForecastShard.DeviceOutcome?]

    init(count: Int) { outcomes = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        lock.withLock {
            guard next < outcomes.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func store(_ outcome: ForecastShard.DeviceOutcome, at slot: Int) { lock.withLock { outcomes[slot] = outcome } }

    var all: [ForecastShard.DeviceOutcome] { lock.withLock { outcomes.compactMap { $0 } } }
}
