import Emulation

/// The rule for every name a client gives — a device's name and model, a tenant's, a background task's, a
/// Newsstand issue's, a scenario's: a bounded number of code points and **no control character** (Unicode's
/// general category Cc: NUL, escape, tab, line breaks, C1 controls). A name is shown on one line in the dashboard,
/// the access log, the CLI's tables and JUnit reports; a NUL or an escape sequence in one is a client's bug or an
/// attack on whoever reads it, never a name.
enum NameRule {
    /// Why `name` breaks the rule, as a field issue's message; nil when it follows it.
    /// - Parameters:
    ///   - minimum: the fewest code points (1, or 0 where an empty name is allowed).
    ///   - maximum: the most code points.
    static func problem(_ name: String, minimum: Int = 1, maximum: Int) -> String? {
        let count = name.codePointCount
        if count < minimum || count > maximum || name.containsControlCharacter {
            let length = minimum == 0 ? "at most \(maximum)" : "\(minimum)–\(maximum)"
            return "must be \(length) characters, none of them a control character"
        }
        return nil
    }
}
