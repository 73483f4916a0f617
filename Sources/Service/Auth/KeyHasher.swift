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

    /// The lower-case hex SHA-256 of the bytes at `input`, hashed `pieceSize` bytes at a time with `between` called
    /// after each piece: for a large body hashed on a low-priority thread that gives its processor back between
    /// pieces (``HTTPServer/CooperativeYield``). The same digest as ``sha256Hex(_:)-(UnsafeRawBufferPointer)``.
    public static func sha256Hex(_ input: UnsafeRawBufferPointer, pieceSize: Int, between: () -> Void) -> String {
        guard let context = EVP_MD_CTX_new() else { return sha256Hex(input) }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, sha256 ?? EVP_sha256(), nil) == 1 else { return sha256Hex(input) }
        var offset = 0
        let step = max(1, pieceSize)
        while offset < input.count {
            let end = min(input.count, offset + step)
            guard EVP_DigestUpdate(context, input.baseAddress! + offset, end - offset) == 1 else { return sha256Hex(input) }
            offset = end
            if offset < input.count { between() }
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(SHA256_DIGEST_LENGTH)) { digest in
            var length: UInt32 = 0
            guard EVP_DigestFinal_ex(context, digest.baseAddress, &length) == 1 else { return sha256Hex(input) }
            return hex(UnsafeBufferPointer(rebasing: digest[..<Int(length)]))
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
