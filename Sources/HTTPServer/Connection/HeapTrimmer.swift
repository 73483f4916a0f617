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

    /// How many trims ran (tests).
    public var trimCount: Int { trims.load(ordering: .relaxed) }
}
