import Foundation

/// The fleet forecast (issue 14): thousands of synthetic devices, each a `DeviceEngine` in memory under the same
/// rules as an emulated device, driven by a person drawn from the population; the answer is distributions.
public enum Forecast {
    /// Runs the forecast over `threads` worker threads (devices are handed out one at a time; each device's result
    /// depends only on the request and its index, and the results are merged in device order, so the answer is the
    /// same byte for byte whatever the thread count).
    ///
    /// `progress` is called with the share of devices done (0–1), in increasing order, at most about 100 times,
    /// on a worker thread. When `isCancelled` answers true, the workers stop and the run throws
    /// `CancellationError`. An invalid request throws `EmulationError.invalid`.
    ///
    /// With `workerStart`, the workers are threads of their own (not the shared dispatch pool), each calling it
    /// first: the service lowers their priority there, which must not stay on a pooled thread.
    public static func run(
        _ request: ForecastRequest, threads: Int = 2, progress: (@Sendable (Double) -> Void)? = nil,
        isCancelled: (@Sendable () -> Bool)? = nil, workerStart: (@Sendable () -> Void)? = nil
    ) throws -> ForecastReport {
        let issues = request.validate()
        guard issues.isEmpty else { throw EmulationError.invalid(issues) }
        let plan = try ForecastPlan(request)
        let work = ForecastWork(count: request.devices, progress: progress)
        let workers = max(1, min(threads, request.devices))
        let runDevices: @Sendable () -> Void = {
            while let index = work.claim() {
                if isCancelled?() == true {
                    work.cancel()
                    return
                }
                work.store(ForecastDeviceSimulation.run(plan, device: index), at: index)
            }
        }
        if let workerStart {
            let finished = DispatchGroup()
            for n in 0..<workers {
                finished.enter()
                let thread = Thread {
                    workerStart()
                    runDevices()
                    finished.leave()
                }
                thread.name = "bgemu-forecast-\(n)"
                thread.stackSize = 8 << 20  // as the main thread's: a device's simulation is not shallow
                thread.start()
            }
            finished.wait()
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in runDevices() }
        }
        guard let outcomes = work.finished else { throw CancellationError() }
        let rows = outcomes.map(\.row)
        let result = ForecastResult(request, kinds: plan.kinds, rows: rows, pushDelays: outcomes.flatMap(\.pushDelays))
        return ForecastReport(result: result, devices: rows)
    }

    /// The person of device `index` (as the forecast draws it).
    public static func person(_ request: ForecastRequest, device index: Int) -> ForecastPerson {
        ForecastPerson.draw(request, device: index)
    }

    /// The timeline of device `index`: what a client would do to replay the device through the API.
    public static func timeline(_ request: ForecastRequest, device index: Int) -> ForecastTimeline {
        ForecastTimeline.build(request, person(request, device: index))
    }

    /// The device the forecast creates for device `index`, before any call: its id, seed and first conditions.
    public static func device(_ request: ForecastRequest, index: Int) -> Device {
        let person = person(request, device: index)
        return device(request, index: index, person: person, timeline: ForecastTimeline.build(request, person))
    }

    static func device(_ request: ForecastRequest, index: Int, person: ForecastPerson, timeline: ForecastTimeline) -> Device {
        Device(
            id: "forecast_\(index)", tenantId: "forecast", name: "forecast device \(index)", osVersion: request.osVersion,
            clock: DeviceClock(start: timeline.start), conditions: timeline.initialConditions, seed: person.engineSeed,
            createdAt: Date(timeIntervalSince1970: 0))
    }
}

/// A finished forecast: the summary and the per-device rows (for the CSV).
public struct ForecastReport: Sendable, Equatable {
    /// The summary (`result`).
    public var result: ForecastResult
    /// One row per device, in device order.
    public var devices: [ForecastDeviceRow]
}

/// The devices to run and their outcomes, shared by the worker threads under a lock.
private final class ForecastWork: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private let progress: (@Sendable (Double) -> Void)?
    private var next = 0
    private var done = 0
    private var reported = 0
    private var cancelled = false
    private var outcomes: [ForecastDeviceSimulation.Outcome?]

    init(count: Int, progress: (@Sendable (Double) -> Void)?) {
        self.count = count
        self.progress = progress
        outcomes = Array(repeating: nil, count: count)
    }

    /// The next device to run, or nil when none is left or the run was cancelled.
    func claim() -> Int? {
        lock.withLock {
            guard !cancelled, next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func store(_ outcome: ForecastDeviceSimulation.Outcome, at index: Int) {
        lock.withLock {
            outcomes[index] = outcome
            done += 1
            // Reported under the lock, so that the calls come in increasing order; about every 1 %.
            let percent = done * 100 / count
            if let progress, percent > reported || done == count {
                reported = percent
                progress(Double(done) / Double(count))
            }
        }
    }

    func cancel() { lock.withLock { cancelled = true } }

    /// Every outcome in device order, or nil when the run was cancelled.
    var finished: [ForecastDeviceSimulation.Outcome]? {
        lock.withLock { cancelled ? nil : outcomes.map { $0! } }
    }
}
