public extension String {
    /// The length in Unicode code points — what JSON Schema's `minLength`/`maxLength` count — rather than Swift's
    /// grapheme clusters, so that limits on names and identifiers agree with the service's contract.
    var codePointCount: Int { unicodeScalars.count }

    /// Whether the string holds a code point of Unicode's `White_Space` property (the same set whatever
    /// the platform's idea of white space).
    var containsWhiteSpace: Bool { unicodeScalars.contains(where: \.properties.isWhitespace) }

    /// Whether the string starts or ends with such a code point.
    var hasSurroundingWhiteSpace: Bool {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return false }
        return first.properties.isWhitespace || last.properties.isWhitespace
    }

    /// Whether the string holds a control character (Unicode's general category Cc: U+0000–U+001F, U+007F–U+009F),
    /// which no identifier may hold: a NUL or an escape in an identifier is a client's bug, not a name.
    var containsControlCharacter: Bool { unicodeScalars.contains { $0.properties.generalCategory == .control } }
}
