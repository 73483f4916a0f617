import CCrypto

/// SHA-256 from the system's libcrypto, and comparison in constant time.
public enum KeyHasher {
    /// The lower-case hex SHA-256 of `text`'s UTF-8 bytes.
    public static func sha256Hex(_ text: String) -> String {
        sha256Hex(Array(text.utf8))
    }

    /// The lower-case hex SHA-256 of `bytes`.
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return hex(digest)
    }

    /// Equality of two strings in time that depends only on their lengths (`CRYPTO_memcmp`).
    public static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        if x.isEmpty { return true }
        return x.withUnsafeBytes { px in
            y.withUnsafeBytes { py in CRYPTO_memcmp(px.baseAddress, py.baseAddress, x.count) == 0 }
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
