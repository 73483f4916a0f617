/// A request path turned into the path segments of a file under the static root, or refused.
///
/// The path is percent-decoded first (RFC 3986 §2.1), so encoded tricks (`%2e%2e`, `%2F`, `%00`) are judged
/// as what they decode to. Refused: undecodable paths, NUL, backslashes, empty segments (`//`) and any segment
/// starting with `.`, which covers the dot-segments `.` and `..` (RFC 3986 §3.3) and keeps dotfiles private.
struct StaticFilePath: Equatable {
    /// The decoded segments, none empty.
    let segments: [String]
    /// Whether the path ended in `/` (asks for a directory's index).
    let isDirectory: Bool

    init?(requestPath: String) {
        guard let decoded = PercentDecoding.decode(requestPath), decoded.utf8.first == UInt8(ascii: "/") else {
            return nil
        }
        guard !decoded.utf8.contains(0), !decoded.utf8.contains(UInt8(ascii: "\\")) else { return nil }
        var pieces = decoded.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        isDirectory = pieces.last?.isEmpty ?? true
        if isDirectory { pieces.removeLast() }
        guard pieces.allSatisfy({ !$0.isEmpty && $0.first != UInt8(ascii: ".") }) else { return nil }
        segments = pieces.map { String(decoding: $0, as: UTF8.self) }
    }
}
