#if canImport(Glibc)
import Glibc
#endif
import Locking

/// `2026-12-01T19:15:18.123Z` for now, as Foundation's ISO 8601 style with fractional seconds writes it, for a
/// fraction of its cost: the date and time up to the second are made once per second and kept (behind a
/// ``PlainLock``: every access line takes it, from every loop and worker at once).
enum LogTimestamp {
    /// A moment as a log line writes it: the kept text up to the second, and the milliseconds.
    struct Stamp {
        var prefix: [UInt8]
        var milliseconds: Int
    }

    private static let cached = PlainLock<(second: Int, text: [UInt8])>((-1, []))

    /// Now, in UTC, to the millisecond, without building its text (``put(_:to:)`` writes it).
    static func stamp() -> Stamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return stamp(seconds: Int(spec.tv_sec), milliseconds: Int(spec.tv_nsec / 1_000_000))
    }

    static func stamp(seconds: Int, milliseconds: Int) -> Stamp {
        let text = cached.withLock { entry -> [UInt8] in
            if entry.second != seconds { entry = (seconds, prefix(seconds)) }
            return entry.text
        }
        return Stamp(prefix: text, milliseconds: milliseconds)
    }

    /// Writes `stamp` where `out` is.
    static func put(_ stamp: Stamp, to out: inout LineCursor) {
        out.put(stamp.prefix)
        out.put(UInt8(ascii: "."))
        out.put(UInt8(ascii: "0") + UInt8(stamp.milliseconds / 100))
        out.put(UInt8(ascii: "0") + UInt8(stamp.milliseconds / 10 % 10))
        out.put(UInt8(ascii: "0") + UInt8(stamp.milliseconds % 10))
        out.put(UInt8(ascii: "Z"))
    }

    /// Now, in UTC, to the millisecond.
    static func now() -> [UInt8] { text(stamp()) }

    static func format(seconds: Int, milliseconds: Int) -> [UInt8] {
        text(stamp(seconds: seconds, milliseconds: milliseconds))
    }

    private static func text(_ stamp: Stamp) -> [UInt8] {
        LineCursor.withLine(capacity: stamp.prefix.count + 5, { put(stamp, to: &$0) }) { Array($0) }
    }

    /// `YYYY-MM-DDTHH:MM:SS` of `seconds` since 1970, in UTC.
    private static func prefix(_ seconds: Int) -> [UInt8] {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func digits(_ value: Int32, _ count: Int) -> [UInt8] {
            var out = [UInt8](repeating: UInt8(ascii: "0"), count: count)
            var rest = Int(value)
            for index in stride(from: count - 1, through: 0, by: -1) {
                out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return out
        }
        return digits(parts.tm_year + 1900, 4) + [UInt8(ascii: "-")] + digits(parts.tm_mon + 1, 2) + [UInt8(ascii: "-")]
            + digits(parts.tm_mday, 2) + [UInt8(ascii: "T")] + digits(parts.tm_hour, 2) + [UInt8(ascii: ":")]
            + digits(parts.tm_min, 2) + [UInt8(ascii: ":")] + digits(parts.tm_sec, 2)
    }
}
