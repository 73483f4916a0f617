import Glibc

/// A `multipart/form-data` body (RFC 7578) split into its parts. The parts are ranges of the body, not copies:
/// a form carrying a 250 MiB `.ipa` in a spooled body (``HTTPRequest/withBodyBytes(_:)``) costs no second 250 MiB.
public struct MultipartFormData: Sendable {
    /// One part: its field name, the file name if it was a file, its own `Content-Type`, and where its content
    /// lies in the body.
    public struct Part: Sendable, Equatable {
        public var name: String
        public var filename: String?
        public var contentType: String?
        /// The part's content: offsets into the body the form was read from.
        public var range: Range<Int>
    }

    /// Why a body is not `multipart/form-data`.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case noBoundary, noFirstBoundary, unterminated, badPartHead, tooManyParts

        public var description: String {
            switch self {
            case .noBoundary: "the Content-Type names no boundary"
            case .noFirstBoundary: "the body does not start with the boundary"
            case .unterminated: "the body ends before its closing boundary"
            case .badPartHead: "a part has no Content-Disposition: form-data with a name"
            case .tooManyParts: "the body has too many parts"
            }
        }
    }

    public var parts: [Part]

    /// The most parts one body may have.
    public static let maximumParts = 32
    /// The most bytes of header fields one part may have.
    static let maximumPartHead = 16 << 10

    /// The first part named `name`.
    public func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// Splits `body` at the boundary that `contentType` (`multipart/form-data; boundary=…`) names.
    public init(body: [UInt8], contentType: String) throws {
        self = try body.withUnsafeBytes { try MultipartFormData(bytes: $0, contentType: contentType) }
    }

    /// Splits `bytes` at the boundary that `contentType` names; each delimiter is found by ``find(_:in:from:)``,
    /// so a part of hundreds of MiB is scanned once, at memory speed.
    public init(bytes body: UnsafeRawBufferPointer, contentType: String) throws {
        guard let boundary = HeaderParameters(parsing: contentType).parameters["boundary"], !boundary.isEmpty,
              boundary.utf8.count <= 70  // RFC 2046 §5.1.1
        else { throw ParseError.noBoundary }
        let dashBoundary = Array("--\(boundary)".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        // The first boundary may be preceded by a preamble (RFC 2046 §5.1.1), which is ignored.
        guard let first = Self.find(dashBoundary, in: body, from: 0),
              first == 0 || (first >= 2 && body[first - 2] == 13 && body[first - 1] == 10)
        else { throw ParseError.noFirstBoundary }
        var parts: [Part] = []
        var cursor = first + dashBoundary.count
        while true {
            // After a boundary: `--` closes the body; otherwise optional white space then CRLF opens a part.
            if cursor + 1 < body.count, body[cursor] == 45, body[cursor + 1] == 45 { break }
            while cursor < body.count, body[cursor] == 32 || body[cursor] == 9 { cursor += 1 }
            guard cursor + 1 < body.count, body[cursor] == 13, body[cursor + 1] == 10 else { throw ParseError.unterminated }
            cursor += 2
            guard let end = Self.find(delimiter, in: body, from: cursor) else { throw ParseError.unterminated }
            guard parts.count < Self.maximumParts else { throw ParseError.tooManyParts }
            parts.append(try Self.part(body, cursor..<end))
            cursor = end + delimiter.count
        }
        self.parts = parts
    }

    /// Where `needle` first occurs in `haystack` at or after `start`: `memchr(3)` to each candidate of its first
    /// byte, `memcmp(3)` there, so a part of hundreds of MiB is scanned at memory speed.
    static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let first = needle.first, start <= haystack.count, let base = haystack.baseAddress else { return nil }
        return needle.withUnsafeBytes { pattern -> Int? in
            var offset = start
            while haystack.count - offset >= pattern.count {
                guard let hit = memchr(base + offset, Int32(first), haystack.count - offset - pattern.count + 1) else {
                    return nil
                }
                let at = UnsafeRawPointer(hit) - base
                if memcmp(base + at, pattern.baseAddress!, pattern.count) == 0 { return at }
                offset = at + 1
            }
            return nil
        }
    }

    /// A part's header fields, a blank line, and its content.
    private static func part(_ body: UnsafeRawBufferPointer, _ range: Range<Int>) throws -> Part {
        let headRange: Range<Int>, content: Range<Int>
        if range.count >= 2, body[range.lowerBound] == 13, body[range.lowerBound + 1] == 10 {
            headRange = range.lowerBound..<range.lowerBound
            content = (range.lowerBound + 2)..<range.upperBound
        } else {
            // The blank line is looked for in the part's first bytes only: a part's head is small.
            let window = UnsafeRawBufferPointer(
                rebasing: body[range.lowerBound..<min(range.upperBound, range.lowerBound + maximumPartHead)])
            guard let split = find([13, 10, 13, 10], in: window, from: 0) else { throw ParseError.badPartHead }
            headRange = range.lowerBound..<(range.lowerBound + split)
            content = (range.lowerBound + split + 4)..<range.upperBound
        }
        var name: String?, filename: String?, contentType: String?
        let head = String(decoding: UnsafeRawBufferPointer(rebasing: body[headRange]), as: UTF8.self)
        for line in head.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw ParseError.badPartHead }
            let field = line[..<colon].lowercased()
            let value = String(line[line.index(after: colon)...])
            if field == "content-disposition" {
                let disposition = HeaderParameters(parsing: value)
                guard disposition.value == "form-data" else { throw ParseError.badPartHead }
                name = disposition.parameters["name"]
                filename = disposition.parameters["filename"]
            } else if field == "content-type" {
                contentType = HeaderParameters(parsing: value).value
            }
        }
        guard let name else { throw ParseError.badPartHead }
        return Part(name: name, filename: filename, contentType: contentType, range: content)
    }
}
