import Foundation

/// The device's clock is virtual: it moves only when the harness (or another client) advances it. A `Date` that
/// app code passes (`earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)`) is mapped by its offset from the
/// wall clock at the call: 15 minutes from now stays 15 minutes from the device's now. A date the service answers
/// is mapped back the same way.
///
/// The offset is rounded to the whole second: the microseconds the app's code takes between computing a date and
/// submitting it must not make one run of a test differ from the next.
///
/// A date computed from the device's own time (``DeviceClock``, or `Date()` under libfaketime, see
/// ``VirtualDateFile``) is nearer to the device's now than to the wall clock's: it keeps its offset from the
/// device's now. (The two nows are months apart for a device that starts on 2026-01-01; a date is read in the
/// frame whose now it is nearer to.)
enum VirtualTime {
    /// The device's instant for `date`, an app's date, given the device's `virtualNow` and the wall clock's
    /// `wallNow` read at the same call.
    static func toDevice(_ date: Date, virtualNow: Date, wallNow: Date) -> Date {
        let fromWall = date.timeIntervalSince(wallNow)
        let fromDevice = date.timeIntervalSince(virtualNow)
        return virtualNow.addingTimeInterval((abs(fromDevice) < abs(fromWall) ? fromDevice : fromWall).rounded())
    }

    /// The wall-clock date an app sees for the device's instant `instant`.
    static func toWall(_ instant: Date, virtualNow: Date, wallNow: Date) -> Date {
        wallNow.addingTimeInterval(instant.timeIntervalSince(virtualNow))
    }

    /// RFC 3339 in UTC with milliseconds, as the service writes it (`2026-01-01T08:00:00.000Z`), rounded to the
    /// nearest millisecond: an instant read from the service (`…06.395Z`, held as a binary fraction a hair below)
    /// is written back as it was read, never a millisecond earlier.
    static func format(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (whole, millis) = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
        let text = Date(timeIntervalSince1970: TimeInterval(whole)).formatted(Date.ISO8601FormatStyle())
        let digits = String(millis)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// Reads an RFC 3339 date-time, with or without a fraction.
    static func parse(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
