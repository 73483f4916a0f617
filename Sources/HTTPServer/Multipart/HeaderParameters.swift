/// A header value of the form `token; name=value; name="quoted value"` (RFC 9110 §5.6.6), as `Content-Type` and
/// `Content-Disposition` (RFC 6266) write it.
public struct HeaderParameters: Sendable, Equatable {
    /// The value before the first `;`, lower-cased (`multipart/form-data`, `form-data`).
    public var value: String
    /// Parameter names lower-cased (they compare case-insensitively); values unquoted, as sent.
    public var parameters: [String: String]

    /// Parses `text`; parameters without `=` are skipped, and the first of a repeated name is kept.
    public init(parsing text: String) {
        var parameters: [String: String] = [:]
        let scalars = Array(text.unicodeScalars)
        var i = 0
        func skipSpace() { while i < scalars.count, scalars[i] == " " || scalars[i] == "\t" { i += 1 } }
        var head = String.UnicodeScalarView()
        while i < scalars.count, scalars[i] != ";" { head.append(scalars[i]); i += 1 }
        value = String(head).trimmingCharacters(" \t").lowercased()
        while i < scalars.count {
            i += 1  // the ';'
            skipSpace()
            var name = String.UnicodeScalarView()
            while i < scalars.count, scalars[i] != "=", scalars[i] != ";" { name.append(scalars[i]); i += 1 }
            guard i < scalars.count, scalars[i] == "=" else { continue }
            i += 1
            skipSpace()
            var parameterValue = String.UnicodeScalarView()
            if i < scalars.count, scalars[i] == "\"" {
                i += 1
                while i < scalars.count, scalars[i] != "\"" {
                    if scalars[i] == "\\", i + 1 < scalars.count { i += 1 }
                    parameterValue.append(scalars[i])
                    i += 1
                }
                i += 1  // the closing quote
                while i < scalars.count, scalars[i] != ";" { i += 1 }
            } else {
                while i < scalars.count, scalars[i] != ";" { parameterValue.append(scalars[i]); i += 1 }
            }
            let key = String(name).trimmingCharacters(" \t").lowercased()
            if !key.isEmpty, parameters[key] == nil {
                parameters[key] = String(parameterValue).trimmingCharacters(" \t")
            }
        }
        self.parameters = parameters
    }
}

extension String {
    /// Without the given characters at either end.
    fileprivate func trimmingCharacters(_ set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }
}
