/// Little-endian fields of a record whose bytes the caller has already bounded: every read is within `bytes`,
/// checked once by the caller for the record's fixed length (an out-of-range read would be a bug, and traps).
struct LittleEndian {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func u16(_ offset: Int) -> UInt16 {
        precondition(offset >= 0 && bytes.count - offset >= 2)
        return UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    func u32(_ offset: Int) -> UInt32 {
        precondition(offset >= 0 && bytes.count - offset >= 4)
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    func u64(_ offset: Int) -> UInt64 {
        precondition(offset >= 0 && bytes.count - offset >= 8)
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
