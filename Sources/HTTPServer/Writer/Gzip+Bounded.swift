import CLibz

extension Gzip {
    /// What bounded decompression made of its input.
    enum BoundedResult {
        case decoded([UInt8])
        /// The content would exceed the limit; decompression stopped there.
        case tooLarge
        /// Not gzip, truncated, or followed by something that is not another member.
        case malformed
    }

    /// The concatenated content of the gzip members in `bytes` (RFC 1952), stopping as soon as it exceeds
    /// `limit` bytes, so a small input that inflates without end costs at most `limit` bytes of memory.
    static func decompress(_ bytes: [UInt8], limit: Int) -> BoundedResult {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip wrapper only.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return .malformed }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, max(4096, bytes.count * 4)))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return bytes.withUnsafeBufferPointer { input -> BoundedResult in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                guard output.count + produced <= limit else { return .tooLarge }
                output.append(contentsOf: chunk[..<produced])
                switch status {
                case Z_STREAM_END:
                    // Another member may follow (RFC 1952 §2.2).
                    guard stream.avail_in > 0 else { return .decoded(output) }
                    guard inflateReset(&stream) == Z_OK else { return .malformed }
                case Z_OK:
                    continue
                case Z_BUF_ERROR where produced > 0:
                    continue
                default:
                    return .malformed
                }
            }
        }
    }
}
