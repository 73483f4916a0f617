/// A `multipart/form-data` body (RFC 7578) split into its parts.
public struct MultipartFormData: Sendable {
    /// One part: its field name, the file name if it was a file, its own `Content-Type`, and its bytes.
    public struct Part: Sendable, Equatable {
        public var name: String
        public var filename: String?
        public var contentType: String?
        public var body: [UInt8]
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

    /// The first part named `name`.
    public func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// Splits `body` at the boundary that `contentType` (`multipart/form-data; boundary=…`) names.
    public init(body: [UInt8], contentType: String) throws {
        guard let boundary = HeaderParameters(parsing: contentType).parameters["boundary"], !boundary.isEmpty,
              boundary.utf8.count <= 70  // RFC 2046 §5.1.1
        else { throw ParseError.noBoundary }
        let dashBoundary = Array("--\(boundary)".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        // The first boundary may be preceded by a preamble (RFC 2046 §5.1.1), which is ignored.
        guard let first = body.firstRange(of: dashBoundary),
              first.lowerBound == 0 || body[..<first.lowerBound].suffix(2) == [13, 10]
        else { throw ParseError.noFirstBoundary }
        var parts: [Part] = []
        var cursor = first.upperBound
        while true {
            // After a boundary: `--` closes the body; otherwise optional white space then CRLF opens a part.
            if body[cursor...].starts(with: [45, 45]) { break }
            while cursor < body.count, body[cursor] == 32 || body[cursor] == 9 { cursor += 1 }
            guard body[cursor...].starts(with: [13, 10]) else { throw ParseError.unterminated }
            cursor += 2
            guard let end = body[cursor...].firstRange(of: delimiter) else { throw ParseError.unterminated }
            guard parts.count < Self.maximumParts else { throw ParseError.tooManyParts }
            parts.append(try Self.part(body[cursor..<end.lowerBound]))
            cursor = end.upperBound
        }
        self.parts = parts
    }

    /// A part's header fields, a blank line, and its content.
    private static func part(_ bytes: ArraySlice<UInt8>) throws -> Part {
        let blank: [UInt8] = [13, 10, 13, 10]
        let head: ArraySlice<UInt8>, content: ArraySlice<UInt8>
        if bytes.starts(with: [13, 10]) {
            head = bytes.prefix(0)
            content = bytes.dropFirst(2)
        } else if let split = bytes.firstRange(of: blank) {
            head = bytes[..<split.lowerBound]
            content = bytes[split.upperBound...]
        } else {
            throw ParseError.badPartHead
        }
        var name: String?, filename: String?, contentType: String?
        for line in String(decoding: head, as: UTF8.self).split(separator: "\r\n") {
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
        return Part(name: name, filename: filename, contentType: contentType, body: Array(content))
    }
}
