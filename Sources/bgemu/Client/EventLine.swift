import Foundation

/// An event as one terminal line: its virtual time, type, app (`-` for the device's own) and data as `key=value`,
/// keys in order:
/// `2026-01-01T00:15:00.000Z  app.stateChanged  com.example.news  cause=idle from=background to=suspended`.
enum EventLine {
    static func text(_ event: [String: Any]) -> String {
        let at = event["at"] as? String ?? "?"
        let type = event["type"] as? String ?? "?"
        let bundleId = event["bundleId"] as? String ?? "-"
        let data = event["data"] as? [String: Any] ?? [:]
        let summary = data.keys.sorted().map { "\($0)=\(value(data[$0] as Any))" }.joined(separator: " ")
        return [at, pad(type, 26), pad(bundleId, 24), summary].joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }

    /// A value as short text: strings as they are (quoted when they hold spaces), null as `null`, numbers without a
    /// needless fraction, the rest as compact JSON.
    static func value(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case let text as String: return text.contains(" ") || text.isEmpty ? "\"\(text)\"" : text
        case let number as NSNumber:
            // JSON's true and false are NSNumbers of type `c` (char), on Linux as on Darwin.
            if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
            let type = String(cString: number.objCType)
            if type != "d", type != "f" { return type == "Q" ? String(number.uint64Value) : String(number.int64Value) }
            let double = number.doubleValue
            return double == double.rounded() && abs(double) < 1e15 ? String(Int64(double)) : String(double)
        default:
            guard JSONSerialization.isValidJSONObject(value),
                  let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
            else { return "\(value)" }
            return String(decoding: data, as: UTF8.self)
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
