import CSystem
import Dispatch
import Synchronization

/// Gives the heap memory that closed streams freed back to the system (`malloc_trim(3)`), a moment after they close.
///
/// glibc keeps freed memory in its arenas (one per thread that allocated, up to eight per core) for the next
/// allocation, and returns only the top of each heap by itself: the queues of a thousand streams that fell behind,
/// freed when they closed, stayed in the process's RSS for good (1,000 unread streams: 1.5 GiB, still there 15 s after
/// they closed). A trim walks every arena's free chunks and releases their pages; it is asked for when a stream
/// closes, at most once per `delay`, on a utility thread, so that a burst of closes costs one trim and no request
/// ever waits for one.
public final class HeapTrimmer: Sendable {
    /// The process's trimmer: the heap is the process's.
    public static let shared = HeapTrimmer(delay: .seconds(1))

    private let delay: DispatchTimeInterval
    private let queue = DispatchQueue(label: "bgemu.heap-trim", qos: .utility)
    private let pending = Atomic<Bool>(false)
    private let trims = Atomic<Int>(0)

    init(delay: DispatchTimeInterval) {
        self.delay = delay
    }

    /// Trims the heap `delay` from now, unless a trim is already due by then.
    public func trimSoon() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            pending.store(false, ordering: .releasing)
            _ = malloc_trim(0)
            trims.add(1, ordering: .relaxed)
        }
    }

    /// Also trims every `interval` from now on (idempotent): the arenas of threads that allocated much and then
    /// little (a burst of writes, a thousand events fanned out) are otherwise never trimmed by glibc, which trims
    /// only the top of the main heap by itself.
    public func trimEvery(_ interval: Duration) {
        let milliseconds = Int(max(1, interval / .milliseconds(1)))
        guard !periodic.exchange(true, ordering: .acquiringAndReleasing) else { return }
        schedulePeriodic(after: .milliseconds(milliseconds))
    }

    private let periodic = Atomic<Bool>(false)
    private let beforePeriodic = Mutex<(@Sendable () -> Void)?>(nil)

    /// Runs `body` before each periodic trim, on the trimmer's thread (the service frees its database's idle caches
    /// there, so that the trim gives their pages back too). Replaces an earlier one.
    public func beforeEachPeriodicTrim(_ body: @escaping @Sendable () -> Void) {
        beforePeriodic.withLock { $0 = body }
    }

    /// Ends the periodic trims after the next (tests).
    func stopPeriodicTrims() {
        periodic.store(false, ordering: .releasing)
    }

    private func schedulePeriodic(after interval: DispatchTimeInterval) {
        queue.asyncAfter(deadline: .now() + interval) { [self] in
            guard periodic.load(ordering: .acquiring) else { return }
            beforePeriodic.withLock { $0 }?()
            _ = malloc_trim(0)
            trims.add(1, ordering: .relaxed)
            schedulePeriodic(after: interval)
        }
    }

    /// Caps glibc's arenas at `count` (`mallopt(M_ARENA_MAX)`); call it before the threads start. By default glibc
    /// makes up to eight per core, one for each thread that finds the others busy: with 32 workers, 16 arenas, each
    /// keeping its own free memory and fragments.
    public static func limitArenas(to count: Int) {
        _ = mallopt(M_ARENA_MAX, Int32(clamping: max(1, count)))
    }

    /// How many trims ran (tests).
    public var trimCount: Int { trims.load(ordering: .relaxed) }
}
