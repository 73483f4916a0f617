extension Array where Element == UInt8 {
    /// Appends the bytes of a literal.
    @inline(__always)
    mutating func append(_ literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends `value` in decimal ASCII without going through `String`.
    mutating func appendDecimal(_ value: Int) {
        precondition(value >= 0)
        if value < 10 {
            append(UInt8(48 + value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits
        var count = 0
        var rest = value
        Swift.withUnsafeMutableBytes(of: &digits) { scratch in
            while rest > 0 {
                scratch[23 - count] = UInt8(48 + rest % 10)
                rest /= 10
                count += 1
            }
            append(contentsOf: scratch[(24 - count)...])
        }
    }

    /// Appends `value` in lowercase hexadecimal ASCII (a chunk size, RFC 9112 §7.1).
    mutating func appendHex(_ value: Int) {
        precondition(value >= 0)
        let hex: StaticString = "0123456789abcdef"
        var shift = (Int.bitWidth - (value | 1).leadingZeroBitCount + 3) / 4 * 4
        while shift > 0 {
            shift -= 4
            append(hex.utf8Start[(value >> shift) & 0xF])
        }
    }
}

extension String {
    /// Whether the string equals the lowercase ASCII literal, ignoring ASCII case.
    @inline(__always)
    func equalsLowercase(_ literal: StaticString) -> Bool {
        if let result = utf8.withContiguousStorageIfAvailable({ ByteRules.equalsLowercase(UnsafeRawBufferPointer($0), literal) }) {
            return result
        }
        return caseInsensitiveEquals(literal.description)
    }

    /// Whether this comma-separated list (RFC 9110 §5.6.1) has an element equal to the lowercase `token`,
    /// ignoring ASCII case; parameters after `;` are ignored.
    func listContains(_ token: StaticString) -> Bool {
        var copy = self
        return copy.withUTF8 { bytes in
            var found = false
            ByteRules.forEachListElement(UnsafeRawBufferPointer(bytes)) { element in
                let end = element.firstIndex(of: UInt8(ascii: ";")) ?? element.count
                found = ByteRules.equalsLowercase(ByteRules.trimmingWhitespace(UnsafeRawBufferPointer(rebasing: element[..<end])), token)
                return !found
            }
            return found
        }
    }
}
