/// Character classes and comparisons of HTTP's ABNF over raw bytes.
enum ByteRules {
    static let cr: UInt8 = 13
    static let lf: UInt8 = 10
    static let space: UInt8 = 32
    static let tab: UInt8 = 9
    static let colon: UInt8 = 58

    /// `tchar` (RFC 9110 §5.6.2): ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``.
    @inline(__always)
    static func isTokenChar(_ c: UInt8) -> Bool {
        // Bit masks of the tchars among 0–63 and 64–127.
        let low: UInt64 = 0x03FF_6CFA_0000_0000
        let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        if c < 64 { return (low >> UInt64(c)) & 1 == 1 }
        if c < 128 { return (high >> UInt64(c - 64)) & 1 == 1 }
        return false
    }

    /// `field-vchar` or whitespace inside a field value (RFC 9110 §5.5): VCHAR, obs-text, SP and HTAB.
    @inline(__always)
    static func isFieldValueChar(_ c: UInt8) -> Bool {
        c >= 0x20 ? c != 0x7F : c == tab
    }

    /// A character of a request-target: visible ASCII (RFC 9112 §3.2, RFC 3986 §2).
    @inline(__always)
    static func isTargetChar(_ c: UInt8) -> Bool { c > 0x20 && c < 0x7F }

    /// Optional whitespace, `OWS` (RFC 9110 §5.6.3).
    @inline(__always)
    static func isWhitespace(_ c: UInt8) -> Bool { c == space || c == tab }

    /// ASCII case-insensitive comparison of `bytes` with the lowercase literal `lowercase`.
    @inline(__always)
    static func equalsLowercase(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let literal = lowercase.utf8Start
        for i in 0..<bytes.count {
            let c = bytes[i]
            let folded = (c >= 65 && c <= 90) ? c | 0x20 : c
            if folded != literal[i] { return false }
        }
        return true
    }

    /// `bytes` with leading and trailing SP/HTAB removed.
    @inline(__always)
    static func trimmingWhitespace(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = bytes.count
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// Calls `body` with each element of a comma-separated list (RFC 9110 §5.6.1), trimmed, empty ones skipped;
    /// stops early when `body` returns false.
    @inline(__always)
    static func forEachListElement(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Bool) {
        var start = 0
        var i = 0
        while i <= bytes.count {
            if i == bytes.count || bytes[i] == UInt8(ascii: ",") {
                let element = trimmingWhitespace(UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
                if !element.isEmpty, !body(element) { return }
                start = i + 1
            }
            i += 1
        }
    }

    /// Text from bytes already checked to be ASCII or field-value bytes; invalid UTF-8 is repaired.
    @inline(__always)
    static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
