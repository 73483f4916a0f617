#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Emulation
import Foundation
import Logging
import Synchronization
import Stores

/// Runs the tenants' fleet forecasts (issue 14) off the server's threads: each forecast on worker threads of its
/// own, at a lower priority than the requests, one at a time per tenant. Forecasts of all tenants take turns,
/// ``concurrentForecasts`` at a time (each uses every processor given): the others wait, `running` at progress 0,
/// so the CPU and memory forecasts take are bounded however many tenants ask. It keeps them in a
/// ``ForecastStore`` (progress now and then, the end at once) and tells ``publish`` about their progress; it knows
/// no HTTP.
public final class ForecastService: Sendable {
    /// The most forecasts a tenant keeps: creating one more deletes its oldest finished one.
    public static let forecastsPerTenant = 20

    let store: any ForecastStore
    /// The largest `devices × days` a forecast may ask for.
    public let maximumDeviceDays: Int
    let threads: Int
    let niceness: Int32
    let progressStoreInterval: Duration
    let wallClock: @Sendable () -> Date
    let publish: @Sendable (ForecastProgress) -> Void
    let logger: Logger
    /// The running forecast of each tenant.
    private let running = Mutex<[String: RunningForecast]>([:])
    /// Signalled when a run's thread ends (for ``waitUntilIdle()``).
    private let runs = DispatchGroup()
    /// How many forecasts run their workers at once, all tenants together.
    public let concurrentForecasts: Int
    /// A turn to run: taken before a forecast's workers start, given back when they end.
    private let turns: DispatchSemaphore
    /// Progress writes, off the workers (which hold the forecast's own lock when they report, and run at a lower
    /// priority than requests: a write there would keep the database's writer from the requests' writes).
    private let progressWrites = DispatchQueue(label: "bgemu.forecast-progress")

    /// - Parameters:
    ///   - threads: the worker threads of each forecast (the processors the service may use).
    ///   - niceness: how much lower the workers' priority is than the server's (`setpriority`, Linux: per thread).
    ///   - progressStoreInterval: how often a running forecast's progress is written to the store, at most.
    ///   - publish: told of every forecast's progress (about every 1 %) and, after its end is stored, its end.
    public init(
        store: any ForecastStore, maximumDeviceDays: Int = 1_000_000, threads: Int = 2, concurrentForecasts: Int = 1,
        niceness: Int32 = 10,
        progressStoreInterval: Duration = .seconds(2), wallClock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "bgemu.forecasts"),
        publish: @escaping @Sendable (ForecastProgress) -> Void = { _ in }
    ) {
        self.store = store
        self.maximumDeviceDays = maximumDeviceDays
        self.threads = max(1, threads)
        self.concurrentForecasts = max(1, concurrentForecasts)
        turns = DispatchSemaphore(value: self.concurrentForecasts)
        self.niceness = niceness
        self.progressStoreInterval = progressStoreInterval
        self.wallClock = wallClock
        self.logger = logger
        self.publish = publish
    }

    /// Marks the forecasts that were running when the service last stopped as failed (call once, at start-up).
    @discardableResult
    public func failInterrupted() throws -> Int {
        try store.failRunning(.serviceRestarted, at: wallClock())
    }

    /// Validates `request`, stores it as a running forecast of the tenant and starts it.
    ///
    /// Throws `EmulationError.invalid` for an invalid request, ``ForecastServiceError/tooLarge(deviceDays:limit:)``
    /// past the size limit, ``ForecastServiceError/alreadyRunning(forecastId:)`` when the tenant has one running.
    public func start(_ request: ForecastRequest, tenantId: String) throws -> ForecastRecord {
        let issues = request.validate()
        guard issues.isEmpty else { throw EmulationError.invalid(issues) }
        let deviceDays = request.devices * request.days
        guard deviceDays <= maximumDeviceDays else {
            throw ForecastServiceError.tooLarge(deviceDays: deviceDays, limit: maximumDeviceDays)
        }
        let record = ForecastRecord(
            id: SecretGenerator.newID("fc"), tenantId: tenantId, request: request, createdAt: wallClock())
        let run = RunningForecast(id: record.id, tenantId: tenantId)
        try running.withLock { running in
            if let other = running[tenantId] { throw ForecastServiceError.alreadyRunning(forecastId: other.id) }
            running[tenantId] = run
        }
        do {
            try store.insert(record, keepingAtMost: Self.forecastsPerTenant)
        } catch {
            release(run)
            throw error
        }
        runs.enter()
        let thread = Thread { [self] in
            execute(record, run)
            runs.leave()
        }
        thread.name = "bgemu-forecast"
        thread.start()
        return record
    }

    /// The tenant's forecast, with its live progress while it runs.
    public func forecast(tenantId: String, id: String) throws -> ForecastRecord? {
        try store.forecast(tenantId: tenantId, id: id).map(withLiveProgress)
    }

    /// The tenant's forecasts, newest first, without results.
    public func forecasts(tenantId: String) throws -> [ForecastRecord] {
        try store.forecasts(tenantId: tenantId).map(withLiveProgress)
    }

    /// The per-device CSV of the tenant's forecast; nil when there is no such forecast. Throws
    /// ``ForecastServiceError/notDone(forecastId:state:)`` while it runs or when it failed.
    public func csv(tenantId: String, id: String) throws -> String? {
        if let csv = try store.csv(tenantId: tenantId, id: id) { return csv }
        guard let forecast = try store.forecast(tenantId: tenantId, id: id) else { return nil }
        throw ForecastServiceError.notDone(forecastId: id, state: forecast.state.rawValue)
    }

    /// Cancels the tenant's forecast if it runs (its workers stop within a device's time) and deletes it; false
    /// when there is no such forecast.
    public func delete(tenantId: String, id: String) throws -> Bool {
        // Deleted first: should the store fail, the forecast runs on as if nothing had been asked.
        let deleted = try store.delete(tenantId: tenantId, id: id)
        let run = running.withLock { running -> RunningForecast? in
            guard let run = running[tenantId], run.id == id else { return nil }
            running[tenantId] = nil  // the tenant may start another at once
            return run
        }
        run?.cancel()
        return deleted
    }

    /// Cancels the tenant's running forecast, if any, without touching the store: the tenant was deleted, and its
    /// forecasts with it.
    public func forgetTenant(_ tenantId: String) {
        running.withLock { running in
            defer { running[tenantId] = nil }
            return running[tenantId]
        }?.cancel()
    }

    /// Cancels every running forecast (they stay `running` in the store, failed at the next start) and waits for
    /// their threads: for shutdown and tests.
    public func stop() {
        let all = running.withLock { running in
            defer { running = [:] }
            return Array(running.values)
        }
        for run in all { run.cancel() }
        runs.wait()
    }

    /// Waits until no forecast runs.
    public func waitUntilIdle() { runs.wait() }

    /// The id of the tenant's running forecast, if any.
    public func runningForecastId(tenantId: String) -> String? {
        running.withLock { $0[tenantId]?.id }
    }

    private func withLiveProgress(_ record: ForecastRecord) -> ForecastRecord {
        guard record.state == .running else { return record }
        var record = record
        if let run = running.withLock({ $0[record.tenantId] }), run.id == record.id {
            record.progress = max(record.progress, run.progress)
        }
        return record
    }

    /// Forgets `run` as its tenant's running forecast (unless another took its place).
    private func release(_ run: RunningForecast) {
        running.withLock { running in
            if running[run.tenantId] === run { running[run.tenantId] = nil }
        }
    }

    /// The run, on its own thread: a turn waited for, the workers, then the end stored, then published. This
    /// thread keeps the server's priority (it writes the end while holding the database's writer); the workers
    /// run lower.
    private func execute(_ record: ForecastRecord, _ run: RunningForecast) {
        while turns.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if run.isCancelled {
                release(run)
                return
            }
        }
        defer { turns.signal() }
        let started = ContinuousClock.now
        var end = record
        var csv: String?
        do {
            let report = try Forecast.run(
                record.request, threads: threads,
                progress: { [self] share in
                    if run.advance(to: share, storeEvery: progressStoreInterval), share < 1 {
                        progressWrites.async { [self] in
                            do {
                                try store.updateProgress(tenantId: record.tenantId, id: record.id, progress: share)
                            } catch {
                                logger.warning("Forecast \(record.id): progress not stored: \(error)")
                            }
                        }
                    }
                    publish(ForecastProgress(tenantId: record.tenantId, forecastId: record.id, state: .running, progress: share))
                },
                isCancelled: { run.isCancelled },
                workerStart: { [self] in lowerPriority() })
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            end.state = .done
            end.progress = 1
            end.result = report.result
            end.devicesPerSecond = (Double(record.request.devices) / max(seconds, 1e-6) * 10).rounded() / 10
            csv = report.csv()
        } catch is CancellationError {
            release(run)
            return
        } catch {
            logger.error("Forecast \(record.id) failed: \(error)")
            end.state = .failed
            end.failure = ForecastFailure(code: "internalError", detail: "The forecast could not be run.")
        }
        end.finishedAt = wallClock()
        // The tenant's turn ends before its end is stored: a client that sees `done` may start the next at once.
        release(run)
        progressWrites.sync {}  // no progress write lands after the end
        var stored = false
        do {
            stored = try store.finish(end, csv: csv)
        } catch {
            logger.error("Forecast \(record.id): its end could not be stored: \(error)")
        }
        // Deleted meanwhile: nobody is told of a forecast that is gone.
        guard stored, !run.isCancelled else { return }
        publish(ForecastProgress(tenantId: record.tenantId, forecastId: record.id, state: end.state, progress: end.progress))
    }

    /// Lowers the calling thread's priority by `niceness` below the server's (Linux keeps a nice value per
    /// thread), so that a forecast takes what the requests leave.
    private func lowerPriority() {
        #if os(Linux)
        guard niceness > 0 else { return }
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(which, 0)  // -1 is a valid nice value: errno tells a failure
        guard errno == 0 else { return }
        _ = setpriority(which, 0, min(19, current + niceness))
        #endif
    }
}
