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

    /// The exclusive outcomes in the order the result documents them.
    static let pushOutcomes = ["deliveredAtOnce", "deliveredLater", "coalesced", "dropped", "pending"]

    static func pushLines(_ pushes: JSONValue) -> [String] {
        let sent = pushes["sent"]?.intValue ?? 0
        var lines = ["pushes (\(sent) sent):"]
        if let outcomes = pushes["outcomes"], outcomes.objectValue != nil {
            // The result's counts and shares as they are: the counts add up to `sent`, the shares (whole
            // ten-thousandths) to 1, so the percentages, printed to 2 decimals, add up to 100.00 %.
            lines.append("  outcomes (one per push, adding up to the \(sent) sent): "
                + pushOutcomes.map { "\($0) \(tally(outcomes[$0]))" }.joined(separator: ", "))
            let overlapping = pushes["overlapping"] ?? [:]
            lines.append("  deferred at least once by the power-aware policy (R30), overlapping the outcomes: "
                + tally(overlapping["deferredAtLeastOnce"]))
        } else {
            // A service before `outcomes`: its flat shares, of which `deferred` overlaps the other five.
            lines.append("  outcomes: " + pushOutcomes.map { "\($0) \(percent(pushes[$0]))" }.joined(separator: ", "))
            lines.append("  first deferred by the power-aware policy (R30), whatever became of them: \(percent(pushes["deferred"]))")
        }
        if let delays = pushes["delaySeconds"], delays.objectValue != nil {
            lines.append("  delivery delay: p50 \(duration(delays["p50"])), p90 \(duration(delays["p90"])), "
                + "p99 \(duration(delays["p99"]))")
        }
        return lines
    }

    /// `1234 (41.30 %)` from a `{count, share}` tally: the share to its 4 decimals, as a percentage.
    static func tally(_ value: JSONValue?) -> String {
        guard let count = value?["count"]?.intValue, let share = value?["share"]?.numberValue else { return "–" }
        return "\(count) (" + String(format: "%.2f %%", share * 100) + ")"
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
