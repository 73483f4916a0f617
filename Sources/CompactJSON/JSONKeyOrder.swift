import Foundation

/// The order of object keys that Foundation's `JSONEncoder` writes with `.sortedKeys`: their UTF-8 bytes. Shared
/// with the storage layer's event encoder, which sorts the same way.
@usableFromInline
package enum JSONKeyOrder {
    /// The first eight UTF-8 bytes of `key` as a big-endian number, zero-padded: keys whose numbers differ are in
    /// the order of their numbers (a key that is a prefix of another has zeros where the other has bytes, and comes
    /// first); keys whose numbers are equal are compared with ``compare(_:_:)``.
    package static func prefix(_ key: String) -> UInt64 {
        var key = key
        return key.withUTF8 { bytes in
            var prefix: UInt64 = 0
            for index in 0..<8 { prefix = prefix << 8 | (index < bytes.count ? UInt64(bytes[index]) : 0) }
            return prefix
        }
    }

    /// The order of two keys' UTF-8 bytes (negative, zero, positive), as `memcmp` gives it: the generic
    /// `lexicographicallyPrecedes` over `UTF8View` cost more than the rest of writing.
    @usableFromInline
    package static func compare(_ a: String, _ b: String) -> Int {
        var a = a
        var b = b
        return a.withUTF8 { left in
            b.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0, let l = left.baseAddress, let r = right.baseAddress {
                    let order = memcmp(l, r, common)
                    if order != 0 { return Int(order) }
                }
                return left.count - right.count
            }
        }
    }
}
