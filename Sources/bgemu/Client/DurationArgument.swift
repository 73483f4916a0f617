/// A span of virtual time as people type it: `90s`, `15m`, `24h`, `7d`, combined largest unit first (`1h30m`,
/// `2d12h`), or plain seconds (`3600`, `0.5`). Each number may have a fraction (`1.5h`).
struct DurationArgument: Equatable {
    /// The span in seconds.
    var seconds: Double

    /// What is wrong with a text that is not a duration.
    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    init(seconds: Double) {
        self.seconds = seconds
    }

    static let units: [(Character, Double)] = [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)]

    /// Parses `text`; throws a ``ParseError`` that says what is wrong and what is expected.
    init(parsing text: String) throws {
        let expected = "a duration such as 90s, 15m, 24h, 7d, 1h30m or plain seconds (3600)"
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty else { throw ParseError(description: "The duration is empty; give \(expected).") }
        if let plain = Self.number(Substring(trimmed)) {
            seconds = plain
            return
        }
        var total = 0.0
        var rest = Substring(trimmed)
        var nextUnit = 0  // units must come largest first, each at most once
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard let value = Self.number(digits) else {
                throw ParseError(description: "\"\(text)\" is not \(expected).")
            }
            rest = rest.dropFirst(digits.count)
            guard let unit = rest.first, let index = Self.units.firstIndex(where: { $0.0 == unit }) else {
                let found = rest.first.map { "unknown unit \"\($0)\"" } ?? "a number without a unit"
                throw ParseError(description: "\"\(text)\" has \(found); the units are d, h, m and s (\(expected)).")
            }
            guard index >= nextUnit else {
                throw ParseError(description: "\"\(text)\": give each unit once, largest first (1d2h30m10s).")
            }
            nextUnit = index + 1
            total += value * Self.units[index].1
            rest = rest.dropFirst()
        }
        seconds = total
    }

    /// A non-negative decimal number (digits, at most one point, a digit on either side of it); nil otherwise.
    private static func number(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              text.filter({ $0 == "." }).count <= 1, text.first != ".", text.last != "." else { return nil }
        return Double(text)
    }

    /// The span in the largest units, as it would be typed back: `1h30m`, `15m`, `0s`, `2.5s`.
    var text: String {
        var rest = seconds
        var out = ""
        for (unit, size) in Self.units.dropLast() where rest >= size {
            let count = (rest / size).rounded(.down)
            out += "\(Int(count))\(unit)"
            rest -= count * size
        }
        if rest > 0 || out.isEmpty {
            out += rest == rest.rounded() ? "\(Int(rest))s" : "\(rest)s"
        }
        return out
    }
}
