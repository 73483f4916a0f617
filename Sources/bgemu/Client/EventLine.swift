import BGEmuClient
import Foundation

/// An event as one terminal line: its virtual time, type, app (`-` for the device's own) and data as `key=value`,
/// keys in order:
/// `2026-01-01T00:15:00.000Z  app.stateChanged  com.example.news  cause=idle from=background to=suspended`.
enum EventLine {
    static func text(_ event: JSONValue) -> String {
        let at = event["at"]?.stringValue ?? "?"
        let type = event["type"]?.stringValue ?? "?"
        let bundleId = event["bundleId"]?.stringValue ?? "-"
        let data = event["data"]?.objectValue ?? [:]
        let summary = data.keys.sorted().map { "\($0)=\(value(data[$0] ?? .null))" }.joined(separator: " ")
        return [at, pad(type, 26), pad(bundleId, 24), summary].joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }

    /// A value as short text: strings as they are (quoted when they hold spaces), null as `null`, numbers without a
    /// needless fraction, the rest as compact JSON.
    static func value(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .string(let text): text.contains(" ") || text.isEmpty ? "\"\(text)\"" : text
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): number.description
        case .array, .object: value.text
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
