/// Edits to a small non-ZIP64 archive's fields, as a hostile writer would make them: the end record's and the
/// central directory entries' fields by offset, found by walking the directory from the end record.
struct ArchivePatch {
    var bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Where the end record starts (an archive without a comment).
    var endRecord: Int { bytes.count - 22 }

    /// Where each central directory entry starts.
    var centralEntries: [Int] {
        var offsets: [Int] = []
        var position = Int(u32(endRecord + 16))
        for _ in 0..<Int(u16(endRecord + 10)) {
            offsets.append(position)
            position += 46 + Int(u16(position + 28)) + Int(u16(position + 30)) + Int(u16(position + 32))
        }
        return offsets
    }

    func u16(_ offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }

    func u32(_ offset: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) } }

    mutating func set16(_ offset: Int, _ value: UInt16) {
        for k in 0..<2 { bytes[offset + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt16(k))) }
    }

    mutating func set32(_ offset: Int, _ value: UInt32) {
        for k in 0..<4 { bytes[offset + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
    }

    /// Field offsets within a central directory entry.
    enum Central {
        static let flags = 8, method = 10, crc = 16, compressedSize = 20, uncompressedSize = 24, localOffset = 42
    }
}
