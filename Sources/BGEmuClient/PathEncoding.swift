/// Paths and queries built from values: each path segment and each query name and value percent-encoded as UTF-8,
/// leaving only RFC 3986 §2.3's unreserved ASCII characters as they are (a non-ASCII letter is encoded too).
public enum PathEncoding {
    /// `text` percent-encoded as one path segment or one query name or value.
    public static func encode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// `/v1/devices/{device}/…` with every segment encoded: `path("v1", "devices", id)`.
    public static func path(_ segments: String...) -> String { path(segments) }

    /// ``path(_:)-(String...)`` of an array.
    public static func path(_ segments: [String]) -> String { "/" + segments.map(encode).joined(separator: "/") }

    /// `?a=1&b=2` (empty for no items), names and values encoded.
    public static func query(_ items: [(String, String)]) -> String {
        items.isEmpty ? "" : "?" + items.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    /// RFC 3986 §2.3: `A–Z a–z 0–9 - . _ ~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
