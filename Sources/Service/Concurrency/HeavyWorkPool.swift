import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs the CPU-heavy part of requests — reading an uploaded archive, inflating a compressed upload, parsing a
/// property list — where it costs the other tenants nothing:
/// - on threads of Linux's lowest scheduling class (`SCHED_IDLE`, else nice 19): they have the processors only
///   while no request thread wants them, and a request thread that wakes takes a processor back at once;
/// - one job per tenant at a time, the tenants with work served in turn: a tenant's heavy requests queue behind
///   each other, never beside another tenant's;
/// - a bounded queue per tenant (``HeavyWorkBusy`` past it, a `429`), and a bounded wait for a job to start
///   (``HeavyWorkBusy`` again), so that no request holds its worker thread without end.
///
/// The caller's thread (a worker that already left the event loops) waits for the result, outside any lock,
/// gate or transaction of the service: the work is done before a request's write begins.
// @unchecked Sendable: every stored property but the immutable settings is touched with `condition` locked.
public final class HeavyWorkPool: @unchecked Sendable {
    /// The most jobs of one tenant queued or running; one more is refused.
    public let maximumQueuedPerTenant: Int
    /// How long a job may wait for its turn before its caller is told to come back.
    public let startTimeout: Duration
    /// The scheduling class the threads got: `SCHED_IDLE`, `nice 19`, or `normal` when both were refused.
    public private(set) var schedulingClass = "not started"

    private let condition = NSCondition()
    private var queues: [String: [HeavyJob]] = [:]
    /// Tenants with a queued job and none running, in the order they are served.
    private var turns: [String] = []
    private var running: Set<String> = []
    private var stopped = false
    private let threadCount: Int

    /// - Parameters:
    ///   - threads: how many jobs run at once (of different tenants); one per processor is enough, since they use
    ///     only what the requests leave.
    ///   - maximumQueuedPerTenant: a tenant's jobs queued or running at most.
    ///   - startTimeout: how long a job may wait for its turn.
    public init(threads: Int, maximumQueuedPerTenant: Int = 4, startTimeout: Duration = .seconds(60)) {
        threadCount = max(1, threads)
        self.maximumQueuedPerTenant = max(1, maximumQueuedPerTenant)
        self.startTimeout = startTimeout
    }

    /// Starts the threads; returns once each has set its scheduling class.
    public func start() {
        let started = DispatchSemaphore(value: 0)
        for index in 0..<threadCount {
            let thread = Thread { [self] in
                let name = LowPriority.enterForCurrentThread()
                condition.lock()
                schedulingClass = name
                condition.unlock()
                started.signal()
                serve()
            }
            thread.name = "bgemu-heavy-\(index)"
            thread.start()
        }
        for _ in 0..<threadCount { started.wait() }
    }

    /// Lets the threads finish the jobs queued, then exit.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `work` on the pool for `tenant` and returns its result, on the caller's thread's behalf.
    /// - Throws: ``HeavyWorkBusy`` when the tenant has ``maximumQueuedPerTenant`` jobs already, or when the job
    ///   did not start within ``startTimeout``; whatever `work` throws.
    public func run<T: Sendable>(tenant: String, _ work: @escaping @Sendable () throws -> T) throws -> T {
        let box = HeavyJobResult<T>()
        let job = HeavyJob(tenant: tenant) { box.set(Result { try work() }) }
        try enqueue(job)
        if job.done.wait(timeout: .now() + .nanoseconds(Int(startTimeout.nanoseconds))) == .timedOut {
            guard abandonIfQueued(job) else {
                job.done.wait()  // it started in time: it finishes (the work is bounded)
                return try box.get()
            }
            throw HeavyWorkBusy(reason: .waitedTooLong, retryAfterSeconds: 5)
        }
        return try box.get()
    }

    /// Jobs queued or running for `tenant`.
    public func load(of tenant: String) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return (queues[tenant]?.count ?? 0) + (running.contains(tenant) ? 1 : 0)
    }

    private func enqueue(_ job: HeavyJob) throws {
        condition.lock()
        defer { condition.unlock() }
        let tenant = job.tenant
        let queued = queues[tenant]?.count ?? 0
        guard queued + (running.contains(tenant) ? 1 : 0) < maximumQueuedPerTenant, !stopped else {
            throw HeavyWorkBusy(reason: .tooMany(maximumQueuedPerTenant), retryAfterSeconds: 1)
        }
        queues[tenant, default: []].append(job)
        if queued == 0, !running.contains(tenant) {
            turns.append(tenant)
            condition.signal()
        }
    }

    /// Takes `job` out of its queue if it has not started; false when it has.
    private func abandonIfQueued(_ job: HeavyJob) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard var queue = queues[job.tenant], let index = queue.firstIndex(where: { $0 === job }) else { return false }
        queue.remove(at: index)
        if queue.isEmpty {
            queues[job.tenant] = nil
            turns.removeAll { $0 == job.tenant }
        } else {
            queues[job.tenant] = queue
        }
        return true
    }

    private func serve() {
        while let job = next() {
            job.work()
            job.done.signal()
            finished(job.tenant)
        }
    }

    /// The next job, the first of the tenant whose turn it is; nil once stopped with nothing queued.
    private func next() -> HeavyJob? {
        condition.lock()
        defer { condition.unlock() }
        while turns.isEmpty {
            if stopped { return nil }
            condition.wait()
        }
        let tenant = turns.removeFirst()
        var queue = queues[tenant] ?? []
        let job = queue.removeFirst()
        queues[tenant] = queue.isEmpty ? nil : queue
        running.insert(tenant)
        return job
    }

    private func finished(_ tenant: String) {
        condition.lock()
        defer { condition.unlock() }
        running.remove(tenant)
        if queues[tenant] != nil {
            turns.append(tenant)
            condition.signal()
        }
    }
}

/// Why ``HeavyWorkPool`` refused a job: the caller should come back after `retryAfterSeconds`.
public struct HeavyWorkBusy: Error, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// The tenant has this many heavy requests queued or running already.
        case tooMany(Int)
        /// The job waited its whole ``HeavyWorkPool/startTimeout`` for a processor.
        case waitedTooLong
    }

    public let reason: Reason
    public let retryAfterSeconds: Int
}

/// One job and the signal its caller waits on.
// @unchecked Sendable: `work` is a @Sendable closure; the semaphore is thread-safe.
final class HeavyJob: @unchecked Sendable {
    let tenant: String
    let work: @Sendable () -> Void
    let done = DispatchSemaphore(value: 0)

    init(tenant: String, work: @escaping @Sendable () -> Void) {
        self.tenant = tenant
        self.work = work
    }
}

/// A job's result, written by the pool's thread before it signals, read by the caller after.
// @unchecked Sendable: written once before `done.signal()` and read after `done.wait()` (the semaphore orders them).
final class HeavyJobResult<T: Sendable>: @unchecked Sendable {
    private var result: Result<T, any Error>?

    func set(_ result: Result<T, any Error>) { self.result = result }

    func get() throws -> T {
        guard let result else { preconditionFailure("a heavy job's result read before it was set") }
        return try result.get()
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
