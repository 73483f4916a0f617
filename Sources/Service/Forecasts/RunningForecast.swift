import Emulation
import Synchronization

/// A forecast being run: its live progress (fresher than the stored one) and its cancellation flag.
final class RunningForecast: Sendable {
    let id: String
    let tenantId: String
    private let cancelled = Atomic<Bool>(false)
    private let state = Mutex<(progress: Double, lastWrite: ContinuousClock.Instant)>((0, .now))

    init(id: String, tenantId: String) {
        self.id = id
        self.tenantId = tenantId
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    func cancel() { cancelled.store(true, ordering: .relaxed) }

    var progress: Double { state.withLock { $0.progress } }

    /// Records `progress`; true when the stored progress is older than `interval` (and counts it as written now).
    func advance(to progress: Double, storeEvery interval: Duration) -> Bool {
        state.withLock { state in
            state.progress = progress
            let now = ContinuousClock.now
            guard now - state.lastWrite >= interval else { return false }
            state.lastWrite = now
            return true
        }
    }
}
