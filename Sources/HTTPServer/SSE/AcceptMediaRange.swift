/// One element of an `Accept` field: `type/subtype` (either may be `*`) and its weight (RFC 9110 §12.5.1).
struct AcceptMediaRange: Equatable {
    /// Lowercased, as media types compare case-insensitively (RFC 9110 §8.3.1).
    let type: String
    /// Lowercased.
    let subtype: String
    /// The `q` weight, 0...1 (RFC 9110 §12.4.2); 1 when absent.
    let quality: Double

    /// The ranges of an `Accept` value, in order. Malformed elements (no `/`, an invalid `q`) are skipped;
    /// commas inside quoted parameter values do not split elements.
    static func parseList(_ value: String) -> [AcceptMediaRange] {
        splitOutsideQuotes(value, on: ",").compactMap { AcceptMediaRange(element: $0) }
    }

    private init?(element: Substring) {
        let parts = Self.splitOutsideQuotes(element, on: ";")
        guard let first = parts.first else { return nil }
        let typeAndSubtype = first.trimmed().lowercased().split(separator: "/", omittingEmptySubsequences: false)
        guard typeAndSubtype.count == 2, !typeAndSubtype[0].isEmpty, !typeAndSubtype[1].isEmpty,
            typeAndSubtype[0] != "*" || typeAndSubtype[1] == "*"
        else { return nil }
        var quality = 1.0
        for parameter in parts.dropFirst() {
            let pair = parameter.trimmed().split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
            guard let q = Self.qvalue(pair[1]) else { return nil }
            quality = q
        }
        type = String(typeAndSubtype[0])
        subtype = String(typeAndSubtype[1])
        self.quality = quality
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` (RFC 9110 §12.4.2).
    private static func qvalue(_ text: Substring) -> Double? {
        guard let value = Double(text), (0...1).contains(value), text.count <= 5,
            text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        else { return nil }
        return value
    }

    private static func splitOutsideQuotes(_ text: some StringProtocol, on separator: Character) -> [Substring] {
        let text = Substring(text)
        var pieces: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == separator && !quoted {
                pieces.append(text[start..<index])
                start = text.index(after: index)
            }
        }
        pieces.append(text[start...])
        return pieces
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs (OWS, RFC 9110 §5.6.3).
    fileprivate func trimmed() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
