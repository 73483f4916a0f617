import CLibz

/// Raw deflate (RFC 1951, as zip entries hold it) inflated by zlib into a buffer of exactly the declared size:
/// a stream that would produce more is stopped one byte past it, so it costs no more memory than it declared.
enum Inflate {
    /// The `expectedSize` bytes `input` inflates to; `sizeMismatch` when it inflates to more or fewer,
    /// `corruptData` when the stream is invalid or ends before its last block.
    static func raw(_ input: UnsafeRawBufferPointer, expectedSize: Int) throws(ZipError) -> [UInt8] {
        var stream = z_stream()
        // Negative window bits: raw deflate, no zlib or gzip wrapper.
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corruptData
        }
        defer { inflateEnd(&stream) }
        // One spare byte: a stream that fills it inflates past its declared size.
        var output = [UInt8](repeating: 0, count: expectedSize + 1)
        let result = output.withUnsafeMutableBytes { out in
            Result { () throws(ZipError) in try run(&stream, input: input, output: out) }
        }
        let produced = try result.get()
        guard produced == expectedSize else { throw .sizeMismatch }
        output.removeLast()
        return output
    }

    /// The largest piece handed to zlib at once, whose counts are 32-bit.
    private static let piece = 1 << 30

    private static func run(
        _ stream: inout z_stream, input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer
    ) throws(ZipError) -> Int {
        var consumed = 0, produced = 0
        while true {
            let inputPiece = min(piece, input.count - consumed), outputPiece = min(piece, output.count - produced)
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.advanced(by: consumed)
                .assumingMemoryBound(to: UInt8.self))
            stream.avail_in = uInt(inputPiece)
            stream.next_out = output.baseAddress?.advanced(by: produced).assumingMemoryBound(to: UInt8.self)
            stream.avail_out = uInt(outputPiece)
            let status = inflate(&stream, Z_NO_FLUSH)
            consumed += inputPiece - Int(stream.avail_in)
            produced += outputPiece - Int(stream.avail_out)
            switch status {
            case Z_STREAM_END:
                return produced
            case Z_OK, Z_BUF_ERROR:
                // Output full: the stream goes past its declared size (the spare byte is used).
                if produced == output.count { throw .sizeMismatch }
                // Input used up before the last block: cut short. Z_OK always made progress, so this ends.
                if consumed == input.count || status == Z_BUF_ERROR { throw .corruptData }
            default:
                throw .corruptData
            }
        }
    }
}
