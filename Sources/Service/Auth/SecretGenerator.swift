import CCrypto

/// Secrets and identifiers from the system's cryptographic generator (`RAND_bytes`).
public enum SecretGenerator {
    /// A new admin token (or a key of no tenant): `bgemu_` and 32 random bytes in base64url (43 characters).
    public static func newSecret() -> String {
        "bgemu_" + base64url(randomBytes(32))
    }

    /// A new API key of the tenant `tenantId`: `bgemu_`, the tenant's id, `.`, and 32 random bytes in base64url —
    /// `bgemu_ten_3f9c0a….Xk2…`. The tenant's id is not secret (as Stripe's and GitHub's keys name their kind
    /// and account in the clear): a proxy in front of several shards reads it to route the request to the shard
    /// that holds the tenant (`deploy/haproxy.cfg`: the key's first field before `.`, without `bgemu_`, looked
    /// up in a tenant → shard map) without any secret in its configuration. The key is checked by the SHA-256 of
    /// the whole, as before; base64url has no `.`, so the split is unambiguous.
    public static func newSecret(tenantId: String) -> String {
        "bgemu_" + tenantId + "." + base64url(randomBytes(32))
    }

    /// The tenant a key names in the clear (``newSecret(tenantId:)``), nil for a key without one (minted before
    /// keys named their tenant, or chosen by the operator as `BGEMU_API_KEY`).
    public static func tenantId(inKey key: String) -> String? {
        guard key.hasPrefix("bgemu_"), let dot = key.firstIndex(of: ".") else { return nil }
        let id = key[key.index(key.startIndex, offsetBy: 6)..<dot]
        return id.isEmpty ? nil : String(id)
    }

    /// A new opaque identifier such as `ten_3f9c0a…`: the prefix, `_`, and 12 random bytes in hex.
    public static func newID(_ prefix: String) -> String {
        prefix + "_" + KeyHasher.hex(randomBytes(12))
    }

    /// A new identifier whose order follows creation time, `prefix_` and 12 bytes in hex: 6 bytes of `milliseconds`
    /// since 1970 (big-endian, as a UUIDv7 begins), then 6 random bytes. Rows keyed by it are appended at the end
    /// of their indexes instead of at random places: a batch of creations dirties the same few index pages, not one
    /// page each, and those pages stay in the cache. Within one millisecond the order is random; 48 random bits
    /// keep identifiers made together apart.
    public static func newOrderedID(_ prefix: String, milliseconds: Int64) -> String {
        var bytes = randomBytes(12)
        let time = UInt64(max(0, milliseconds)) & 0xFFFF_FFFF_FFFF
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: time >> (8 * (5 - i))) }
        return prefix + "_" + KeyHasher.hex(bytes)
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let ok = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        if ok != 1 {
            // libcrypto could not seed itself; the system generator is cryptographically secure on Linux too.
            var generator = SystemRandomNumberGenerator()
            for i in bytes.indices { bytes[i] = generator.next() }
        }
        return bytes
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out = [UInt8]()
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)]]
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(n >> 18 & 63)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)]]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
