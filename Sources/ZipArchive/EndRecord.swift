/// Where an archive's central directory is and how many entries it declares, from its end of central directory
/// record (APPNOTE 6.3.10 §4.3.16) and, when that record says so, the ZIP64 end record and its locator
/// (§4.3.14, §4.3.15).
struct EndRecord: Equatable {
    /// Entries the directory declares.
    var entryCount: UInt64
    /// The central directory's bytes; entries' data lies before them.
    var directory: Range<Int>
    var isZip64: Bool

    static let signature: UInt32 = 0x0605_4B50
    static let length = 22
    /// The end record is looked for only here, at the end: itself and the longest comment it may be followed by.
    static let searchLength = length + 0xFFFF

    /// Finds and checks the end record, reading only the last `searchLength` bytes of `source` (and the ZIP64
    /// records, which the locator places, when the end record defers to them).
    static func find<Source: ZipByteSource>(in source: Source) throws(ZipError) -> EndRecord {
        let count = source.count
        guard count >= length else { throw .notAZip }
        let window = (count - min(count, searchLength))..<count
        let found = source.withBytes(in: window) { bytes -> (position: Int, record: Fields)? in
            // Backwards, from the last place a record fits, for the first signature whose comment fits.
            var index = bytes.count - length
            while index >= 0 {
                let fields = LittleEndian(UnsafeRawBufferPointer(rebasing: bytes[index..<index + length]))
                if fields.u32(0) == signature, bytes.count - index - length >= Int(fields.u16(20)) {
                    return (window.lowerBound + index, Fields(fields))
                }
                index -= 1
            }
            return nil
        }
        guard let found else { throw .notAZip }
        let record = found.record
        guard record.needsZip64 else {
            guard record.disk == 0, record.directoryDisk == 0, record.entriesOnDisk == record.entryCount else {
                throw .multipleDisks
            }
            let directory = try Checked.range(
                UInt64(record.directoryOffset), length: UInt64(record.directorySize), endingBy: found.position,
                "the central directory")
            return try checked(EndRecord(entryCount: UInt64(record.entryCount), directory: directory, isZip64: false))
        }
        return try zip64(in: source, endRecordAt: found.position)
    }

    /// The ZIP64 end record, through the locator just before the end record.
    private static func zip64<Source: ZipByteSource>(in source: Source, endRecordAt position: Int) throws(ZipError) -> EndRecord {
        let locatorLength = 20
        guard position >= locatorLength else { throw .outOfBounds("the ZIP64 end of central directory locator") }
        let locatorStart = position - locatorLength
        let locator = source.withBytes(in: locatorStart..<position) { bytes in
            let fields = LittleEndian(bytes)
            return (signature: fields.u32(0), disk: fields.u32(4), offset: fields.u64(8), disks: fields.u32(16))
        }
        guard locator.signature == 0x0706_4B50 else { throw .badSignature("the ZIP64 end of central directory locator") }
        guard locator.disk == 0, locator.disks <= 1 else { throw .multipleDisks }
        let recordLength = 56
        let recordRange = try Checked.range(
            locator.offset, length: UInt64(recordLength), endingBy: locatorStart, "the ZIP64 end of central directory record")
        let record = source.withBytes(in: recordRange) { bytes in
            let fields = LittleEndian(bytes)
            return (
                signature: fields.u32(0), size: fields.u64(4), disk: fields.u32(16), directoryDisk: fields.u32(20),
                entriesOnDisk: fields.u64(24), entryCount: fields.u64(32), directorySize: fields.u64(40),
                directoryOffset: fields.u64(48))
        }
        guard record.signature == 0x0606_4B50 else { throw .badSignature("the ZIP64 end of central directory record") }
        // Its size counts what follows the first 12 bytes: at least the 44 of the fixed fields, within the locator.
        let recordEnd = try Checked.sum(
            try Checked.sum(locator.offset, 12, "the ZIP64 end of central directory record"), record.size,
            "the ZIP64 end of central directory record")
        guard record.size >= 44, recordEnd <= UInt64(locatorStart) else {
            throw .outOfBounds("the ZIP64 end of central directory record")
        }
        guard record.disk == 0, record.directoryDisk == 0, record.entriesOnDisk == record.entryCount else {
            throw .multipleDisks
        }
        let directory = try Checked.range(
            record.directoryOffset, length: record.directorySize, endingBy: recordRange.lowerBound, "the central directory")
        return try checked(EndRecord(entryCount: record.entryCount, directory: directory, isZip64: true))
    }

    /// Each entry takes at least 46 bytes of the directory: a count beyond that is a lie.
    private static func checked(_ end: EndRecord) throws(ZipError) -> EndRecord {
        guard end.entryCount <= UInt64(end.directory.count / CentralDirectoryEntry.fixedLength) else {
            throw .malformed("the archive declares more entries than its central directory can hold")
        }
        return end
    }

    /// The end record's fields.
    private struct Fields {
        var disk, directoryDisk, entriesOnDisk, entryCount: UInt16
        var directorySize, directoryOffset: UInt32

        init(_ fields: LittleEndian) {
            disk = fields.u16(4)
            directoryDisk = fields.u16(6)
            entriesOnDisk = fields.u16(8)
            entryCount = fields.u16(10)
            directorySize = fields.u32(12)
            directoryOffset = fields.u32(16)
        }

        /// Any field at its largest value defers to the ZIP64 end record (APPNOTE §4.4.1.4).
        var needsZip64: Bool {
            disk == 0xFFFF || directoryDisk == 0xFFFF || entriesOnDisk == 0xFFFF || entryCount == 0xFFFF
                || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF
        }
    }
}
