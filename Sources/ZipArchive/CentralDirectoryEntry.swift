/// Reading one central directory file header (APPNOTE 6.3.10 §4.3.12) and its ZIP64 extended information extra
/// field (§4.5.3).
enum CentralDirectoryEntry {
    static let signature: UInt32 = 0x0201_4B50
    static let fixedLength = 46

    /// The entry whose header starts `bytes`, and the length of the header; `bytes` runs to the directory's end.
    static func read(_ bytes: UnsafeRawBufferPointer) throws(ZipError) -> (entry: ZipEntry, length: Int) {
        guard bytes.count >= fixedLength else { throw .outOfBounds("a central directory entry") }
        let fields = LittleEndian(bytes)
        guard fields.u32(0) == signature else { throw .badSignature("a central directory entry") }
        let nameLength = Int(fields.u16(28)), extraLength = Int(fields.u16(30)), commentLength = Int(fields.u16(32))
        let length = fixedLength + nameLength + extraLength + commentLength
        guard bytes.count >= length else { throw .outOfBounds("a central directory entry") }
        let name = UnsafeRawBufferPointer(rebasing: bytes[fixedLength..<fixedLength + nameLength])
        let extra = UnsafeRawBufferPointer(rebasing: bytes[fixedLength + nameLength..<fixedLength + nameLength + extraLength])

        // The ZIP64 field holds, in this order, only the values whose own field is at its largest.
        var zip64 = Zip64Fields(extra)
        let uncompressed = try zip64.resolve(UInt64(fields.u32(24)), sentinel: 0xFFFF_FFFF, width: 8)
        let compressed = try zip64.resolve(UInt64(fields.u32(20)), sentinel: 0xFFFF_FFFF, width: 8)
        let offset = try zip64.resolve(UInt64(fields.u32(42)), sentinel: 0xFFFF_FFFF, width: 8)
        let disk = try zip64.resolve(UInt64(fields.u16(34)), sentinel: 0xFFFF, width: 4)
        guard disk == 0 else { throw .multipleDisks }

        let entry = ZipEntry(
            path: String(decoding: name, as: UTF8.self), flags: fields.u16(8), method: fields.u16(10),
            crc32: fields.u32(16), compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: offset,
            versionMadeBy: fields.u16(4), externalAttributes: fields.u32(38), nameLength: nameLength)
        return (entry, length)
    }
}

/// The values of an entry's ZIP64 extended information extra field (header 0x0001), taken in order.
struct Zip64Fields {
    private let field: UnsafeRawBufferPointer?
    private var used = 0

    /// Finds the field among `extra`'s (header, size, data) blocks; a block that does not fit ends the walk (as
    /// alignment padding does), and nothing past `extra` is read.
    init(_ extra: UnsafeRawBufferPointer) {
        var index = 0
        var found: UnsafeRawBufferPointer?
        while extra.count - index >= 4 {
            let header = LittleEndian(UnsafeRawBufferPointer(rebasing: extra[index..<index + 4]))
            let size = Int(header.u16(2))
            guard extra.count - index - 4 >= size else { break }
            if header.u16(0) == 0x0001 {
                found = UnsafeRawBufferPointer(rebasing: extra[index + 4..<index + 4 + size])
                break
            }
            index += 4 + size
        }
        field = found
    }

    /// `value`, or when it is `sentinel` the field's next value of `width` bytes (8, or 4 for the disk number).
    mutating func resolve(_ value: UInt64, sentinel: UInt64, width: Int) throws(ZipError) -> UInt64 {
        guard value == sentinel else { return value }
        guard let field, field.count - used >= width else {
            throw .malformed("an entry declares a ZIP64 value that no ZIP64 extra field holds")
        }
        let fields = LittleEndian(UnsafeRawBufferPointer(rebasing: field[used..<used + width]))
        used += width
        return width == 8 ? fields.u64(0) : UInt64(fields.u32(0))
    }
}
