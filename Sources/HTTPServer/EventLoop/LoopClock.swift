import Glibc

/// Coarse clocks for timers and the `Date` header: a few nanoseconds through the vDSO, millisecond-ish precision.
enum LoopClock {
    /// Milliseconds on a monotonic clock (CLOCK_MONOTONIC_COARSE); only differences mean anything.
    static func monotonicMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Nanoseconds on the monotonic clock (CLOCK_MONOTONIC, through the vDSO), for timing requests.
    @inline(__always)
    static func monotonicNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec)
    }

    /// Whole seconds since the Unix epoch (CLOCK_REALTIME_COARSE).
    static func wallSeconds() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &ts)
        return Int(ts.tv_sec)
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down, never negative.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
