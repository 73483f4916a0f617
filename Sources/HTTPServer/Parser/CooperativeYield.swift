#if canImport(Glibc)
import Glibc
#endif

/// Lets a thread of the lowest scheduling class (`SCHED_IDLE`) give its processor back between pieces of long work.
///
/// Linux's fair scheduler (EEVDF, 6.6+) gives even a `SCHED_IDLE` thread its small share in whole slices: now and
/// then it picks the idle thread over a runnable request thread that ran ahead of its share, and with no preemption
/// in the kernel and a 250 Hz tick the request thread waits up to 4 ms for the tick to end the slice. Yielding after
/// every piece (some 0.1 ms of inflating) ends such a slice at once whenever anything else is runnable (the noisy
/// neighbour's figures are in the README's "A shared service").
public enum CooperativeYield {
    /// `SCHED_IDLE` from `<linux/sched.h>`.
    private static let schedIdle: Int32 = 5

    /// Whether the calling thread is in the `SCHED_IDLE` class (one system call: ask once per piece of work).
    public static func isLowPriorityThread() -> Bool {
        #if os(Linux)
        return sched_getscheduler(0) == schedIdle
        #else
        return false
        #endif
    }

    /// Gives the processor to any other runnable thread (`sched_yield(2)`).
    public static func now() {
        #if os(Linux)
        _ = sched_yield()
        #endif
    }
}
