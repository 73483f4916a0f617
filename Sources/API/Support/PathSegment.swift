/// A value as one path segment of a URI (RFC 3986 §3.3): every byte of its UTF-8 outside `pchar` less `%`
/// is percent-encoded, so a `Location` built from client-chosen identifiers (bundle ids, task identifiers,
/// session identifiers) is a valid URI reference whatever characters they hold.
enum PathSegment {
    /// `/v1/devices/{deviceId}/apps/{bundleId}` followed by `segments`, each encoded: the `Location` of what a
    /// route created on an app.
    static func appPath(deviceId: String, bundleId: String, _ segments: String...) -> String {
        (["", "v1", "devices", deviceId, "apps", bundleId] + segments).map(encode).joined(separator: "/")
    }

    static func encode(_ value: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if isPChar(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%"
                encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                encoded.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return encoded
    }

    private static let hex = Array("0123456789ABCDEF".utf8)

    /// unreserved / sub-delims / ":" / "@" (RFC 3986 §3.3).
    private static func isPChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }
}
