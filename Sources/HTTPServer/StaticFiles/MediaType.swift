/// The media types the static file responder knows, by file name extension (IANA Media Types registry).
public enum MediaType {
    /// The `Content-Type` for files ending in `.ext` (case-insensitive, with or without the leading dot):
    /// `text/*` types carry `charset=utf-8`; types whose registration defines no charset parameter
    /// (`application/json`, RFC 8259 §11) carry none; an unknown extension is `application/octet-stream`
    /// (RFC 2046 §4.5.1).
    public static func forExtension(_ ext: String) -> String {
        var key = ext.lowercased()
        if key.hasPrefix(".") { key.removeFirst() }
        return types[key] ?? "application/octet-stream"
    }

    /// The `Content-Type` for `fileName`, by the text after its last dot (none for dotfiles and bare names).
    static func forFileName(_ fileName: some StringProtocol) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else {
            return "application/octet-stream"
        }
        return forExtension(String(fileName[fileName.index(after: dot)...]))
    }

    private static let types: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",  // RFC 9239 §3
        "mjs": "text/javascript; charset=utf-8",
        "txt": "text/plain; charset=utf-8",
        "json": "application/json",  // RFC 8259 §11
        "map": "application/json",  // source maps are JSON (ECMA-426)
        "yaml": "application/yaml",  // RFC 9512
        "yml": "application/yaml",
        "xml": "application/xml",  // RFC 7303
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "ico": "image/vnd.microsoft.icon",
        "woff": "font/woff",  // RFC 8081
        "woff2": "font/woff2",
        "wasm": "application/wasm",
    ]
}
