import Dispatch
import Locking
import Logging

/// Threads that run the requests a server hands off its event loops (those that may wait, such as on a
/// database's write lock), taken fairly by key (see ``FairWorkQueue``): while they wait, the loops keep reading,
/// answering and routing every other connection.
final class WorkerPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var queue = FairWorkQueue<Job>()
        var stopped = false
    }

    private let state = PlainLock(State())
    /// One signal per queued job (and one per thread at stop).
    private let available = DispatchSemaphore(value: 0)
    let threadCount: Int

    init(threads: Int) {
        threadCount = max(1, threads)
    }

    /// Starts the threads.
    func start() throws(HTTPServerError) {
        for index in 0..<threadCount {
            try LoopThread.spawn(name: "http-worker-\(index)") { [self] in run() }
        }
    }

    /// Queues `job` under `key`; false once the pool has stopped.
    @discardableResult
    func submit(key: String, _ job: @escaping Job) -> Bool {
        let queued = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.queue.append(job, key: key)
            return true
        }
        if queued { available.signal() }
        return queued
    }

    /// Lets the threads finish the jobs queued, then exit.
    func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        for _ in 0..<threadCount { available.signal() }
    }

    private func run() {
        while true {
            available.wait()
            let next = state.withLock { state -> (job: Job?, stop: Bool) in
                (state.queue.next(), state.stopped)
            }
            if let job = next.job {
                job()
            } else if next.stop {
                return
            }
        }
    }
}
