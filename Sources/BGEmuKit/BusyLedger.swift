import Foundation

/// What of an app's code is still at work, for co-simulated time (see ``EmulatedDevice/realTimeBudget``): a run
/// whose completion app code holds and has not called (a `BGTask` without `setTaskCompleted`, a fetch, silent push
/// or URL session completion handler), a background task begun and not ended. Each item keeps the real instant
/// (monotonic: `ContinuousClock`, never the wall clock) since which the harness has been waiting for it; an item
/// waited for longer than the budget is overdue: the harness stops following real time for it.
///
/// `@unchecked Sendable`: every member is behind `lock`.
final class BusyLedger: @unchecked Sendable {
    /// Whether the device's clock may jump.
    enum State: Equatable {
        /// Nothing open: time may jump.
        case idle
        /// Something open for less than the budget: time follows real time.
        case busy
        /// Only items open for longer than the budget: time jumps again (a never-completing handler still meets
        /// its expiration and the watchdog at their virtual instants).
        case overdue
    }

    /// The key of the run `runId`.
    static func run(_ runId: String) -> String { "run \(runId)" }
    /// The key of the background task `taskId` (the service's id).
    static func backgroundTask(_ taskId: String) -> String { "background task \(taskId)" }

    private let lock = NSLock()
    private var since: [String: ContinuousClock.Instant] = [:]

    /// App code holds `key` (``run(_:)``, ``backgroundTask(_:)``) from now on.
    func open(_ key: String) { lock.withLock { since[key] = .now } }

    /// The system asked app code to finish `key` (its expiration handler ran): the harness waits for it a budget
    /// again, as the device grants a grace period.
    func renew(_ key: String) { lock.withLock { if since[key] != nil { since[key] = .now } } }

    /// App code finished `key` (its completion reached the service), or the device ended it.
    func close(_ key: String) { _ = lock.withLock { since.removeValue(forKey: key) } }

    /// The process ended: nothing of it is at work.
    func clear() { lock.withLock { since = [:] } }

    /// The items open, sorted (for messages).
    var openItems: [String] { lock.withLock { since.keys.sorted() } }

    /// The ledger's state at `now` for `budget`.
    func state(at now: ContinuousClock.Instant, budget: Duration) -> State {
        lock.withLock {
            if since.isEmpty { return .idle }
            return since.values.contains { now - $0 < budget } ? .busy : .overdue
        }
    }
}
