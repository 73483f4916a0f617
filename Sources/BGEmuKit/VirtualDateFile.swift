import Foundation

/// The libfaketime mode of a test process: when the process runs with libfaketime preloaded and
/// `FAKETIME_TIMESTAMP_FILE` in its environment, the harness writes the device's virtual now to that file (an
/// absolute, stopped time: `2026-01-01 08:00:00.000`, UTC) whenever the device's clock moves, so that app code's own
/// `Date()` reads the device's time. With `FAKETIME_NO_CACHE=1` libfaketime reads the file at every call;
/// `DONT_FAKE_MONOTONIC=1` keeps the monotonic clock real, which co-simulated time needs. One device at a time: the
/// file holds the now of the device whose clock moved last.
final class VirtualDateFile: Sendable {
    /// The file of this process's environment, if any.
    static let shared: VirtualDateFile? = ProcessInfo.processInfo.environment["FAKETIME_TIMESTAMP_FILE"]
        .flatMap { $0.isEmpty ? nil : VirtualDateFile(path: $0) }

    let path: String

    init(path: String) { self.path = path }

    /// libfaketime's absolute format for `date`: `YYYY-MM-DD hh:mm:ss.mmm`, in UTC.
    static func line(_ date: Date) -> String {
        String(VirtualTime.format(date).dropLast().replacingOccurrences(of: "T", with: " "))
    }

    /// Writes `date` whole (a rename), so that a read never sees half a line.
    func write(_ date: Date) {
        try? Data((Self.line(date) + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
