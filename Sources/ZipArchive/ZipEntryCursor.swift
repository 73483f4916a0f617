/// Reads a central directory one entry at a time, checking each as it comes: its record within the directory, its
/// ZIP64 values, and its local header and data (at the least as long as its name and compressed size) before the
/// directory. `next()` answers nil only once the directory as a whole has been checked too: no two entries
/// overlap (one stored byte counted twice is how overlapping zip bombs multiply themselves) and the count the end
/// record declares is the count read. So act on what it listed only after it has answered nil.
public struct ZipEntryCursor<Source: ZipByteSource> {
    private let source: Source
    private let end: EndRecord
    private let maximumCount: Int
    private var position: Int
    private var count = 0
    /// Each entry's least extent (its local header's offset, and where its data ends at the least), 16 bytes an
    /// entry: the whole directory's only memory.
    private var extents: [(start: UInt64, end: UInt64)] = []
    private var finished = false

    init(source: Source, end: EndRecord, maximumCount: Int) {
        self.source = source
        self.end = end
        self.maximumCount = maximumCount
        position = end.directory.lowerBound
        // The declared count, already held to what the directory's bytes can hold: room for every extent at once.
        extents.reserveCapacity(Int(min(end.entryCount, UInt64(max(0, maximumCount)))))
    }

    /// The next entry, or nil after the last (and after the whole directory's checks); `ZipError` for the first
    /// thing wrong, such as more entries than `maximumCount`.
    public mutating func next() throws(ZipError) -> ZipEntry? {
        if finished { return nil }
        guard position < end.directory.upperBound else {
            try finish()
            return nil
        }
        guard count < maximumCount else { throw .tooManyEntries(maximumCount) }
        let (entry, length) = try source.withBytes(in: position..<end.directory.upperBound) { bytes throws(ZipError) in
            try CentralDirectoryEntry.read(bytes)
        }
        position += length
        count += 1
        let start = entry.localHeaderOffset
        let headerEnd = try Checked.sum(
            start, UInt64(LocalHeader.fixedLength + entry.nameLength), "an entry's local header")
        guard headerEnd <= UInt64(end.directory.lowerBound) else { throw .outOfBounds("an entry's local header") }
        let dataEnd = try Checked.sum(headerEnd, entry.compressedSize, "an entry's data")
        guard dataEnd <= UInt64(end.directory.lowerBound) else { throw .outOfBounds("an entry's data") }
        extents.append((start, dataEnd))
        return entry
    }

    private mutating func finish() throws(ZipError) {
        let read = UInt64(count)
        // Writers that know no ZIP64 let a count past 65,535 wrap; the entries read are what counts.
        guard read == end.entryCount || (!end.isZip64 && read & 0xFFFF == end.entryCount) else {
            throw .malformed("the archive declares \(end.entryCount) entries but its central directory holds \(count)")
        }
        extents.sort { $0.start < $1.start }
        for index in extents.indices.dropFirst() where extents[index].start < extents[index - 1].end {
            throw .overlappingEntries
        }
        extents = []
        finished = true
    }
}
