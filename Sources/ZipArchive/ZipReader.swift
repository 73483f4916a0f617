/// A total, read-only zip archive reader (PKWARE APPNOTE 6.3.10): ZIP64, stored and deflate entries. It reads a
/// `ZipByteSource` in place (nothing is copied but an entry asked for), finds the end record only in the last
/// 65,557 bytes, and checks every size, offset and count with overflow-safe arithmetic before using it, so any
/// input ends in an answer or a `ZipError`, with CPU linear in the central directory and the entries read.
public struct ZipReader<Source: ZipByteSource> {
    public let source: Source
    private let end: EndRecord

    /// Reads `source`'s end records; `ZipError.notAZip` when it has none.
    public init(_ source: Source) throws(ZipError) {
        self.source = source
        end = try EndRecord.find(in: source)
    }

    /// The number of entries the archive declares.
    public var declaredEntryCount: UInt64 { end.entryCount }

    /// The entries, read one at a time (see `ZipEntryCursor`); more than `maximumCount` is `tooManyEntries`.
    public func entries(maximumCount: Int = .max) -> ZipEntryCursor<Source> {
        ZipEntryCursor(source: source, end: end, maximumCount: maximumCount)
    }

    /// The bytes of `entry` (one of this archive's), stored or inflated, their size and CRC-32 checked against
    /// what it declares; `tooLarge` when it declares more than `limit` bytes, which bounds the memory it takes.
    public func contents(of entry: ZipEntry, limit: Int) throws(ZipError) -> [UInt8] {
        guard !entry.isEncrypted else { throw .encrypted }
        guard entry.method == 0 || entry.method == 8 else { throw .unsupportedMethod(entry.method) }
        guard limit >= 0, entry.uncompressedSize <= UInt64(limit) else { throw .tooLarge(limit: max(0, limit)) }
        // Deflate inflates at most 1,032 times its size: an entry that declares more is damaged, and no limit the
        // caller gives makes it allocate more than its stored bytes could fill.
        if entry.method == 8, entry.uncompressedSize > Self.mostInflated(from: entry.compressedSize) { throw .sizeMismatch }
        let size = Int(entry.uncompressedSize)
        let data = try LocalHeader.dataRange(of: entry, in: source, endingBy: end.directory.lowerBound)
        let bytes = try source.withBytes(in: data) { stored throws(ZipError) -> [UInt8] in
            if entry.method == 8 { return try Inflate.raw(stored, expectedSize: size) }
            guard stored.count == size else { throw .sizeMismatch }
            return Array(stored)
        }
        guard bytes.withUnsafeBytes(CRC32.checksum) == entry.crc32 else { throw .crcMismatch }
        return bytes
    }

    /// The most bytes `compressedSize` bytes of deflate can inflate to (1,032:1, and a little for a tiny stream).
    static func mostInflated(from compressedSize: UInt64) -> UInt64 {
        let (most, overflow) = compressedSize.multipliedReportingOverflow(by: 1032)
        return overflow ? .max : most.addingReportingOverflow(1024).overflow ? .max : most + 1024
    }
}
