import Glibc

/// The `Date` header value (IMF-fixdate, RFC 9110 §5.6.7), formatted at most once per second per loop.
struct DateCache {
    private(set) var second = -1
    /// `Sun, 06 Nov 1994 08:49:37 GMT`: always 29 bytes.
    private(set) var value: [UInt8] = []

    /// Reformats when `now` (seconds since the epoch) is a new second.
    mutating func update(now: Int) {
        guard now != second else { return }
        second = now
        value = Self.format(now)
    }

    private static let days: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months: [StaticString] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate of `seconds` since the epoch.
    static func format(_ seconds: Int) -> [UInt8] {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var out: [UInt8] = []
        out.reserveCapacity(29)
        func name(_ s: StaticString) { out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: 3)) }
        func two(_ n: Int32) { out.append(UInt8(48 + n / 10)); out.append(UInt8(48 + n % 10)) }
        name(days[Int(parts.tm_wday)])
        out.append(contentsOf: [44, 32])  // ", "
        two(parts.tm_mday)
        out.append(32)
        name(months[Int(parts.tm_mon)])
        out.append(32)
        let year = Int(parts.tm_year) + 1900
        out.append(contentsOf: [UInt8(48 + year / 1000 % 10), UInt8(48 + year / 100 % 10), UInt8(48 + year / 10 % 10), UInt8(48 + year % 10)])
        out.append(32)
        two(parts.tm_hour)
        out.append(58)
        two(parts.tm_min)
        out.append(58)
        two(parts.tm_sec)
        out.append(contentsOf: [32, 71, 77, 84])  // " GMT"
        return out
    }
}
