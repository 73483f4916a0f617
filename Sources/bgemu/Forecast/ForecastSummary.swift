import BGEmuClient
import Foundation

/// The summary `bgemu forecast` prints from a finished forecast (the JSON object of `GET /v1/forecasts/{id}`).
enum ForecastSummary {
    /// The run kinds in the order the result lists them, with their names as printed.
    static let kinds: [(key: String, name: String)] = [
        ("appRefresh", "app refresh"), ("processing", "processing"), ("fetch", "background fetch"),
    ]

    static func lines(_ forecast: JSONValue) -> [String] {
        let result = forecast["result"] ?? [:]
        let devices = result["devices"]?.intValue ?? 0
        let days = result["days"]?.intValue ?? 0
        var header = "forecast \(forecast["forecastId"]?.stringValue ?? "?"): \(devices) device\(devices == 1 ? "" : "s") × "
            + "\(days) day\(days == 1 ? "" : "s")"
        if let rate = forecast["devicesPerSecond"]?.numberValue { header += " (\(Int(rate.rounded())) devices/s)" }
        var lines = [header]
        for kind in kinds {
            guard let summary = result[kind.key] else { continue }
            lines.append("")
            lines += kindLines(kind.name, summary)
        }
        if let pushes = result["pushes"] {
            lines.append("")
            lines += pushLines(pushes)
        }
        return lines
    }

    static func kindLines(_ name: String, _ summary: JSONValue) -> [String] {
        let within = summary["devicesWithRunWithin"] ?? [:]
        var lines = [name + ":"]
        lines.append("  devices with a run within 1h / 4h / 24h of install: "
            + ["1h", "4h", "24h"].map { percent(within[$0]) }.joined(separator: " / "))
        if let delays = summary["firstRunDelaySeconds"], delays.objectValue != nil {
            lines.append("  first run after install: p50 \(duration(delays["p50"])), p90 \(duration(delays["p90"])), "
                + "p99 \(duration(delays["p99"]))")
        } else {
            lines.append("  first run after install: no device ran it")
        }
        if let spread = summary["runsPerDevicePerDay"], spread.objectValue != nil {
            lines.append("  runs per device per day: mean \(number(spread["mean"])), p50 \(number(spread["p50"])), "
                + "p90 \(number(spread["p90"]))")
        }
        lines.append("  runs that expired: \(percent(summary["expiredShare"]))")
        lines.append("  devices that never ran it: \(percent(summary["devicesWithoutRun"]))")
        let whyNot = (summary["whyNot"]?.objectValue ?? [:])
            .compactMap { key, value in value.numberValue.map { (key, $0) } }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        if !whyNot.isEmpty {
            lines.append("    why not: " + whyNot.map { "\($0.0) \(percent(.number($0.1)))" }.joined(separator: ", "))
        }
        return lines
    }

    static func pushLines(_ pushes: JSONValue) -> [String] {
        var lines = ["pushes (\(pushes["sent"]?.intValue ?? 0) sent):"]
        // The five outcomes exclude each other and add up to every push sent; `deferred` overlaps them (a deferred
        // push was later delivered, coalesced, dropped or is pending), so it is said apart.
        let outcomes = ["deliveredAtOnce", "deliveredLater", "coalesced", "dropped", "pending"]
        lines.append("  outcomes: " + outcomes.map { "\($0) \(percent(pushes[$0]))" }.joined(separator: ", "))
        lines.append("  first deferred by the power-aware policy (R30), whatever became of them: \(percent(pushes["deferred"]))")
        if let delays = pushes["delaySeconds"], delays.objectValue != nil {
            lines.append("  delivery delay: p50 \(duration(delays["p50"])), p90 \(duration(delays["p90"])), "
                + "p99 \(duration(delays["p99"]))")
        }
        return lines
    }

    /// `12.3 %` from a share 0–1.
    static func percent(_ value: JSONValue?) -> String {
        guard let share = value?.numberValue else { return "–" }
        return String(format: "%.1f %%", share * 100)
    }

    static func number(_ value: JSONValue?) -> String {
        guard let number = value?.numberValue else { return "–" }
        return String(format: "%.2f", number)
    }

    /// Seconds as `45s`, `12m 5s`, `3h 20m`, `2d 4h`.
    static func duration(_ value: JSONValue?) -> String {
        guard let seconds = value?.numberValue, seconds.isFinite, seconds >= 0 else { return "–" }
        let total = Int(seconds.rounded())
        let (d, h, m, s) = (total / 86_400, total % 86_400 / 3_600, total % 3_600 / 60, total % 60)
        if d > 0 { return h > 0 ? "\(d)d \(h)h" : "\(d)d" }
        if h > 0 { return m > 0 ? "\(h)h \(m)m" : "\(h)h" }
        if m > 0 { return s > 0 ? "\(m)m \(s)s" : "\(m)m" }
        return "\(s)s"
    }
}
