import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Puts the calling thread in the lowest scheduling class it may enter without privileges: `SCHED_IDLE` (Linux
/// 2.6.23+, open to every thread), which runs only when no thread of a normal class is runnable and is preempted
/// as soon as one wakes; failing that, nice 19 (on Linux a nice value is the thread's own). Neither can be undone
/// without privileges, so only a thread made for such work enters it.
enum LowPriority {
    /// `SCHED_IDLE` from `<linux/sched.h>` (Glibc's module exports it only under `_GNU_SOURCE`).
    static let schedIdle: Int32 = 5

    /// Enters the class; returns its name (`SCHED_IDLE`, `nice 19`, or `normal` when both were refused).
    static func enterForCurrentThread() -> String {
        #if os(Linux)
        var parameters = sched_param()
        parameters.sched_priority = 0
        if pthread_setschedparam(pthread_self(), schedIdle, &parameters) == 0 { return "SCHED_IDLE" }
        errno = 0
        if nice(19) != -1 || errno == 0 { return "nice 19" }
        #endif
        return "normal"
    }

    /// The calling thread's scheduling policy as `sched_getscheduler` reports it (for tests).
    static func currentPolicy() -> Int32 {
        #if os(Linux)
        var policy: Int32 = 0
        var parameters = sched_param()
        guard pthread_getschedparam(pthread_self(), &policy, &parameters) == 0 else { return -1 }
        return policy
        #else
        return -1
        #endif
    }
}
