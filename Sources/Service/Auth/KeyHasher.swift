import CCrypto

/// SHA-256 from the system's libcrypto, and comparison in constant time.
public enum KeyHasher {
    /// SHA-256, fetched from the default provider once: `SHA256()` fetches it on every call, taking the provider
    /// store's lock (measured: the digest of a request's key was 4.5 % of a device read's CPU, a third of it that
    /// lock). An `EVP_MD` is immutable once fetched and may be used by any thread at once.
    nonisolated(unsafe) private static let sha256 = EVP_MD_fetch(nil, "SHA256", nil)

    /// The lower-case hex SHA-256 of `text`'s UTF-8 bytes.
    public static func sha256Hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { sha256Hex(UnsafeRawBufferPointer($0)) }
    }

    /// The lower-case hex SHA-256 of `bytes`.
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { sha256Hex($0) }
    }

    /// The lower-case hex SHA-256 of the bytes at `input`.
    public static func sha256Hex(_ input: UnsafeRawBufferPointer) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(SHA256_DIGEST_LENGTH)) { digest in
            var length: UInt32 = 0
            if sha256 == nil || EVP_Digest(input.baseAddress, input.count, digest.baseAddress, &length, sha256, nil) != 1 {
                SHA256(input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count, digest.baseAddress)
            }
            return hex(UnsafeBufferPointer(digest))
        }
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

    /// `bytes` in lower-case hex.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { hex($0) }
    }

    /// `bytes` in lower-case hex.
    static func hex(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            for (index, byte) in bytes.enumerated() {
                out[2 * index] = hexDigit(byte >> 4)
                out[2 * index + 1] = hexDigit(byte & 0x0f)
            }
            return bytes.count * 2
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
