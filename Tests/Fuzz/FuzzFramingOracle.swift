/// An independent, deliberately plain reading of one request's bytes (RFC 9112 §6, §7.1): where its head ends and
/// what its body is. The bytes the parser consumed for a request must read, this way, as exactly that request with
/// exactly its body, with nothing left over: a request ends where any other reader would end it.
enum FuzzFramingOracle {
    /// The body of the one request `bytes` hold, framed by chunks or by its length; nil when the bytes are not one
    /// whole request so framed.
    static func body(of bytes: ArraySlice<UInt8>, chunked: Bool) -> [UInt8]? {
        var reader = Reader(bytes: bytes)
        // Empty lines before the request line are ignored (RFC 9112 §2.2); then lines up to an empty one.
        var line = reader.line()
        while line?.isEmpty == true { line = reader.line() }
        guard line != nil else { return nil }
        repeat {
            guard let field = reader.line() else { return nil }
            line = field
        } while line?.isEmpty == false

        guard chunked else { return Array(bytes[reader.index...]) }
        var body: [UInt8] = []
        while true {
            guard let sizeLine = reader.line() else { return nil }
            let digits = sizeLine.prefix { $0.isHexDigit }
            guard !digits.isEmpty, digits.count <= 15 else { return nil }
            let size = digits.reduce(0) { $0 << 4 | $1.hexValue }
            if size == 0 { break }
            guard let data = reader.take(size) else { return nil }
            body += data
            guard reader.line()?.isEmpty == true else { return nil }  // CRLF after the chunk's data
        }
        // Trailer fields up to an empty line, and then the end of the request.
        while true {
            guard let trailer = reader.line() else { return nil }
            if trailer.isEmpty { break }
        }
        return reader.index == bytes.endIndex ? body : nil
    }

    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var index: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            index = bytes.startIndex
        }

        /// The next line without its LF or CRLF; nil when no LF is left.
        mutating func line() -> ArraySlice<UInt8>? {
            guard let lf = bytes[index...].firstIndex(of: 10) else { return nil }
            var line = bytes[index..<lf]
            if line.last == 13 { line = line.dropLast() }
            index = lf + 1
            return line
        }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard bytes.endIndex - index >= count else { return nil }
            defer { index += count }
            return bytes[index..<index + count]
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool { (48...57).contains(self) || (65...70).contains(self) || (97...102).contains(self) }
    fileprivate var hexValue: Int { Int(self <= 57 ? self - 48 : (self | 0x20) - 87) }
}
