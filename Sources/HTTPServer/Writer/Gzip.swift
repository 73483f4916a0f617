import CLibz

/// gzip (RFC 1952) through the system zlib: the server's response compression, and decompression for
/// tests and clients.
public enum Gzip {
    /// `bytes` compressed as one gzip member at zlib's default level; nil if zlib fails.
    public static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16 asks deflate for a gzip wrapper instead of zlib's.
        let initialized = deflateInit2_(
            &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initialized == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var status = Z_STREAM_ERROR
        var output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            bytes.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                status = deflate(&stream, Z_FINISH)
            }
            count = buffer.count - Int(stream.avail_out)
        }
        guard status == Z_STREAM_END else { return nil }
        output.reserveCapacity(0)
        return output
    }

    /// The concatenated content of the gzip members (or zlib stream) in `bytes`; nil when they are malformed
    /// or truncated.
    public static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 32: detect a gzip or zlib header.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(4096, bytes.count * 4))
        return bytes.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, out.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[..<produced])
                switch status {
                case Z_STREAM_END:
                    // Another member may follow (RFC 1952 §2.2).
                    guard stream.avail_in > 0 else { return output }
                    guard inflateReset(&stream) == Z_OK else { return nil }
                case Z_OK:
                    continue
                case Z_BUF_ERROR where produced > 0:
                    continue
                default:
                    return nil
                }
            }
        }
    }
}
