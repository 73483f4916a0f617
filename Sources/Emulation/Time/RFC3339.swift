/// RFC 3339 timestamps in UTC with millisecond fractions (`2026-01-01T08:00:00.000Z`), computed without
/// Foundation's calendars so the core stays pure and fast.
public enum RFC3339 {
    /// Formats `instant` as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    public static func format(_ instant: VirtualInstant) -> String {
        let ms = instant.milliseconds
        let millis = Int(((ms % 1000) + 1000) % 1000)
        let totalSeconds = (ms - Int64(millis)) / 1000
        let days = Int(floorDiv(totalSeconds, 86_400))
        let secondsOfDay = Int(totalSeconds - Int64(days) * 86_400)
        let (y, m, d) = civil(fromDays: days)
        if (0...9999).contains(y) {
            // The usual case, written digit by digit into the 24 bytes of `YYYY-MM-DDTHH:MM:SS.mmmZ`.
            return String(unsafeUninitializedCapacity: 24) { text in
                func put(_ value: Int, _ width: Int, at offset: Int) {
                    var value = value
                    for index in stride(from: offset + width - 1, through: offset, by: -1) {
                        text[index] = UInt8(ascii: "0") + UInt8(value % 10)
                        value /= 10
                    }
                }
                put(y, 4, at: 0)
                text[4] = UInt8(ascii: "-")
                put(m, 2, at: 5)
                text[7] = UInt8(ascii: "-")
                put(d, 2, at: 8)
                text[10] = UInt8(ascii: "T")
                put(secondsOfDay / 3600, 2, at: 11)
                text[13] = UInt8(ascii: ":")
                put(secondsOfDay / 60 % 60, 2, at: 14)
                text[16] = UInt8(ascii: ":")
                put(secondsOfDay % 60, 2, at: 17)
                text[19] = UInt8(ascii: ".")
                put(millis, 3, at: 20)
                text[23] = UInt8(ascii: "Z")
                return 24
            }
        }
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(secondsOfDay / 3600, 2) + ":"
            + pad(secondsOfDay / 60 % 60, 2) + ":" + pad(secondsOfDay % 60, 2) + "." + pad(millis, 3) + "Z"
    }

    /// Parses an RFC 3339 date-time (any offset, optional fraction); nil when it is not one.
    public static func parse(_ text: String) -> VirtualInstant? {
        let b = Array(text.utf8)
        func num(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var v = 0
            for i in start..<(start + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                v = v * 10 + Int(b[i] - 48)
            }
            return v
        }
        guard b.count >= 20, let y = num(0, 4), b[4] == 45, let mo = num(5, 2), b[7] == 45, let d = num(8, 2),
            b[10] == 84 || b[10] == 116 || b[10] == 32, let h = num(11, 2), b[13] == 58, let mi = num(14, 2),
            b[16] == 58, let s = num(17, 2)
        else { return nil }
        guard (1...12).contains(mo), d >= 1, d <= daysInMonth(y, mo), h < 24, mi < 60, s < 61 else { return nil }
        var i = 19
        var fractionMillis = 0
        if i < b.count, b[i] == 46 {
            i += 1
            var digits = 0
            var scale = 100
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if digits < 3 { fractionMillis += Int(b[i] - 48) * scale; scale /= 10 }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
        }
        guard i < b.count else { return nil }
        var offsetSeconds = 0
        if b[i] == 90 || b[i] == 122 {
            i += 1
        } else if b[i] == 43 || b[i] == 45, let oh = num(i + 1, 2), i + 3 < b.count, b[i + 3] == 58,
            let om = num(i + 4, 2), oh < 24, om < 60
        {
            offsetSeconds = (oh * 3600 + om * 60) * (b[i] == 43 ? 1 : -1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = Int64(daysFromCivil(y, mo, d))
        let seconds = days * 86_400 + Int64(h * 3600 + mi * 60 + min(s, 59)) - Int64(offsetSeconds)
        return VirtualInstant(milliseconds: seconds * 1000 + Int64(fractionMillis))
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    private static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        switch m {
        case 2: (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's civil-date algorithms (days since 1970-01-01).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
