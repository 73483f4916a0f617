import CLibz

/// zlib's CRC-32 (the one zip entries declare), over any length.
enum CRC32 {
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: uLong = 0
        var offset = 0
        while offset < bytes.count {
            let length = min(1 << 30, bytes.count - offset)
            crc = crc32(crc, bytes.baseAddress?.advanced(by: offset).assumingMemoryBound(to: UInt8.self), uInt(length))
            offset += length
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}
