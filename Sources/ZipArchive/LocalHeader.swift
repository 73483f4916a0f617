/// Reading an entry's local file header (APPNOTE 6.3.10 §4.3.7) for where its data starts. Its sizes are not read:
/// the central directory's are authoritative (and, with a data descriptor, the local ones are zeros).
enum LocalHeader {
    static let signature: UInt32 = 0x0403_4B50
    static let fixedLength = 30

    /// The range of `entry`'s stored data, which must end by `limit` (the central directory's start).
    static func dataRange<Source: ZipByteSource>(
        of entry: ZipEntry, in source: Source, endingBy limit: Int
    ) throws(ZipError) -> Range<Int> {
        let header = try Checked.range(
            entry.localHeaderOffset, length: UInt64(fixedLength), endingBy: limit, "an entry's local header")
        let (signature, variableLength) = source.withBytes(in: header) { bytes in
            let fields = LittleEndian(bytes)
            return (fields.u32(0), UInt64(fields.u16(26)) + UInt64(fields.u16(28)))
        }
        guard signature == Self.signature else { throw .badSignature("an entry's local header") }
        let dataStart = try Checked.sum(UInt64(header.upperBound), variableLength, "an entry's local header")
        return try Checked.range(dataStart, length: entry.compressedSize, endingBy: limit, "an entry's data")
    }
}
