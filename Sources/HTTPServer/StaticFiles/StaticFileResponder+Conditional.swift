extension StaticFileResponder {
    /// A weak entity tag from the file's size and modification time (RFC 9110 §8.8.3). Weak, because the
    /// server may gzip the body, and a strong tag must change with the content coding.
    static func entityTag(for metadata: StaticFileSystem.Metadata) -> String {
        let nanoseconds = metadata.modifiedSeconds &* 1_000_000_000 &+ metadata.modifiedNanoseconds
        return "W/\"\(String(metadata.size, radix: 16))-\(String(nanoseconds, radix: 16))\""
    }

    /// Whether a `GET`/`HEAD` is answered `304` (RFC 9110 §13.2.2): `If-None-Match` decides when present
    /// (weak comparison, `*` matches any current file, §13.1.2); otherwise `If-Modified-Since` does, true when
    /// the file is not newer than the given date (§13.1.3).
    static func isNotModified(_ request: HTTPRequest, etag: String, metadata: StaticFileSystem.Metadata) -> Bool {
        let noneMatch = request.headers.values("If-None-Match")
        if !noneMatch.isEmpty {
            let ours = opaqueTag(etag)
            for candidate in noneMatch.joined(separator: ",").split(separator: ",") {
                let tag = candidate.trimmingWhitespace()
                if tag == "*" || opaqueTag(tag) == ours { return true }
            }
            return false
        }
        if let since = request.headers["If-Modified-Since"], let date = StaticFileDate.parse(since) {
            return metadata.modifiedSeconds <= date
        }
        return false
    }

    /// The tag without its weakness indicator, `W/"x"` → `"x"`.
    private static func opaqueTag(_ tag: some StringProtocol) -> Substring {
        let tag = Substring(tag)
        return tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs (RFC 9110 §5.6.3 OWS).
    fileprivate func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
