import CLibz
#if canImport(Glibc)
import Glibc
#endif

/// Removes a gzip coding (RFC 1952; RFC 9110 §8.4.1.3) from a body of any size, off the event loops: the content
/// goes to memory while it is small and to a ``BodySpool`` past `spoolThreshold`, and decoding stops as soon as it
/// passes `limit`, so a small bomb costs at most `limit` bytes of disk and the CPU to inflate them. A caller that
/// knows more from the content's first bytes (an upload route: what does not start like a zip is a plist of at most
/// 1 MiB) lowers the limit there (`limitFor`), and decoding stops at that one instead.
enum BodyInflater {
    /// How many first bytes of the content `limitFor` is shown (fewer when the content is shorter).
    static let prefixLength = 16

    /// How many times its gzip size a body may inflate to, past ``ratioFloor``. An app's archive is mostly
    /// compressed already and gzips to about its size (a stored `.ipa` of executables and text to a third or a
    /// tenth of it); 100 times is a bomb's ratio (zeros gzip to about a thousandth), refused long before the route's
    /// limit: a 253 KiB body that would inflate to 255 MiB is stopped at 25 MiB.
    static let maximumRatio = 100
    /// What any gzip body may inflate to, whatever its ratio: as much as a plain `Info.plist` or JSON body may be,
    /// and then some.
    static let ratioFloor = 16 << 20

    /// The most bytes `encodedCount` bytes of gzip may inflate to (before the route's own limit).
    static func ratioBound(encodedCount: Int) -> Int {
        let (scaled, overflow) = encodedCount.multipliedReportingOverflow(by: maximumRatio)
        return overflow ? .max : max(ratioFloor, scaled)
    }

    /// What the content became.
    enum Result {
        case bytes([UInt8])
        case spooled(SpooledBody)
        /// Past `limit`: decoding stopped there.
        case tooLarge
        /// Past the lower limit `limitFor` gave for the content's first bytes: decoding stopped there.
        case tooLargeForContent
        /// Not gzip, truncated, or followed by something that is not another member.
        case malformed
        /// The content could not be written to a temporary file.
        case unstorable
    }

    static func inflate(
        _ input: UnsafeRawBufferPointer, limit: Int, spoolThreshold: Int,
        limitFor: (UnsafeRawBufferPointer) -> Int? = { _ in nil }
    ) -> Result {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip wrapper only.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK,
              let base = input.baseAddress
        else { return .malformed }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var spool: BodySpool?
        var total = 0
        var limit = limit
        var judged = false
        var lowered = false
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
        defer { chunk.deallocate() }
        var remaining = input.count
        let yields = CooperativeYield.isLowPriorityThread()
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        while true {
            // zlib counts in 32 bits: feed at most 1 GiB at a time.
            if stream.avail_in == 0, remaining > 0 {
                let step = min(remaining, 1 << 30)
                stream.avail_in = uInt(step)
                remaining -= step
            }
            stream.next_out = chunk.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(chunk.count)
            let status = CLibz.inflate(&stream, Z_NO_FLUSH)
            let produced = chunk.count - Int(stream.avail_out)
            total += produced
            // The content's first bytes: those kept so far (in memory: the spool begins past 1 MiB) and this piece's.
            if !judged, total >= Self.prefixLength || status == Z_STREAM_END {
                judged = true
                var prefix = Array(output.prefix(Self.prefixLength))
                prefix += UnsafeRawBufferPointer(rebasing: chunk[..<produced]).prefix(Self.prefixLength - prefix.count)
                if let lower = prefix.withUnsafeBytes(limitFor), lower < limit {
                    limit = lower
                    lowered = true
                }
            }
            guard total <= limit else { return lowered ? .tooLargeForContent : .tooLarge }
            if yields { CooperativeYield.now() }
            let piece = UnsafeRawBufferPointer(rebasing: chunk[..<produced])
            if let spool {
                guard spool.write(piece) else { return .unstorable }
            } else if output.count + produced > spoolThreshold {
                guard let made = BodySpool() else { return .unstorable }
                let ok = output.withUnsafeBytes { made.write($0) } && made.write(piece)
                guard ok else { return .unstorable }
                output = []
                spool = made
            } else {
                output.append(contentsOf: piece)
            }
            switch status {
            case Z_STREAM_END:
                // Another member may follow (RFC 1952 §2.2).
                guard stream.avail_in > 0 || remaining > 0 else {
                    guard let spool else { return .bytes(output) }
                    return spool.finish().map { .spooled($0) } ?? .unstorable
                }
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
