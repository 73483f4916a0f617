extension String {
    /// The length JSON Schema's `minLength`/`maxLength` measure: Unicode code points (RFC 8259 characters),
    /// not Swift's grapheme clusters, so that the service and its contract agree on every string.
    var jsonLength: Int { unicodeScalars.count }

    /// Whether the string starts or ends with a code point of Unicode's `White_Space` property — the set the
    /// contract spells out in its patterns.
    var hasSurroundingWhiteSpace: Bool {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return false }
        return first.properties.isWhitespace || last.properties.isWhitespace
    }
}
