/// Overflow-safe arithmetic on what an archive declares: a sum that overflows, or a range that ends past its limit,
/// is a `ZipError.outOfBounds`, never a trap; and no `UInt64` becomes an `Int` before it is known to fit.
enum Checked {
    /// `a + b`, or `outOfBounds(what)` when the sum overflows 64 bits.
    static func sum(_ a: UInt64, _ b: UInt64, _ what: String) throws(ZipError) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        if overflow { throw .outOfBounds(what) }
        return sum
    }

    /// `offset..<offset + length` as `Int`s, when it ends at or before `limit` (a length of the source, so the
    /// conversions cannot trap); else `outOfBounds(what)`.
    static func range(_ offset: UInt64, length: UInt64, endingBy limit: Int, _ what: String) throws(ZipError) -> Range<Int> {
        guard limit >= 0 else { throw .outOfBounds(what) }
        let end = try sum(offset, length, what)
        guard end <= UInt64(limit) else { throw .outOfBounds(what) }
        return Int(offset)..<Int(end)
    }
}
