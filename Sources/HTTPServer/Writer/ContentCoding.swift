/// Response compression rules: when the client accepts gzip (RFC 9110 §12.5.3) and which media types are
/// worth compressing.
enum ContentCoding {
    /// Whether an `Accept-Encoding` value lets the server answer with gzip: `gzip` (or `x-gzip`, or `*` when
    /// gzip is not named) has q > 0, and, when identity is rated explicitly (by name or through `*`), not below it.
    static func acceptsGzip(_ acceptEncoding: String) -> Bool {
        var gzip: Int?
        var identity: Int?
        var star: Int?
        var value = acceptEncoding
        value.withUTF8 { bytes in
            ByteRules.forEachListElement(UnsafeRawBufferPointer(bytes)) { element in
                let semicolon = element.firstIndex(of: UInt8(ascii: ";")) ?? element.count
                let coding = ByteRules.trimmingWhitespace(UnsafeRawBufferPointer(rebasing: element[..<semicolon]))
                guard let quality = quality(UnsafeRawBufferPointer(rebasing: element[semicolon...])) else { return true }
                if ByteRules.equalsLowercase(coding, "gzip") || ByteRules.equalsLowercase(coding, "x-gzip") {
                    gzip = quality
                } else if ByteRules.equalsLowercase(coding, "identity") {
                    identity = quality
                } else if ByteRules.equalsLowercase(coding, "*") {
                    star = quality
                }
                return true
            }
        }
        let gzipQuality = gzip ?? star ?? 0
        guard gzipQuality > 0 else { return false }
        guard let identityQuality = identity ?? star else { return true }
        return gzipQuality >= identityQuality
    }

    /// The `q` weight (RFC 9110 §12.4.2) in thousandths from `;param;q=0.5…`: 1000 when absent, nil when invalid.
    static func quality(_ parameters: UnsafeRawBufferPointer) -> Int? {
        var result: Int? = 1000
        var start = 0
        while start < parameters.count {
            let end = parameters[(start + 1)...].firstIndex(of: UInt8(ascii: ";")) ?? parameters.count
            let parameter = ByteRules.trimmingWhitespace(UnsafeRawBufferPointer(rebasing: parameters[(start + 1)..<end]))
            if parameter.count >= 2, parameter[0] | 0x20 == UInt8(ascii: "q"), parameter[1] == UInt8(ascii: "=") {
                result = parseQValue(UnsafeRawBufferPointer(rebasing: parameter[2...]))
            }
            start = end
        }
        return result
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    private static func parseQValue(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1"), bytes.count <= 5 else {
            return nil
        }
        var value = Int(first - 48) * 1000
        guard bytes.count > 1 else { return value }
        guard bytes[1] == UInt8(ascii: ".") else { return nil }
        var scale = 100
        for digit in bytes[2...] {
            guard digit >= 48, digit <= 57 else { return nil }
            value += Int(digit - 48) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    /// Whether a `Content-Type` names a textual format that compresses well: `text/*`, JSON, XML (and their
    /// `+json`/`+xml` suffixes), JavaScript, YAML and SVG.
    static func isCompressible(contentType: String) -> Bool {
        // The API's own answers, asked on every request: no lower-casing or splitting for them.
        if contentType == "application/json" || contentType == "application/problem+json" { return true }
        let mediaType = contentType.prefix { $0 != ";" }.lowercased().filter { $0 != " " && $0 != "\t" }
        guard let slash = mediaType.firstIndex(of: "/") else { return false }
        let type = mediaType[..<slash]
        let subtype = mediaType[mediaType.index(after: slash)...]
        if type == "text" { return true }
        switch subtype {
        case "json", "xml", "javascript", "x-javascript", "ecmascript", "yaml", "x-yaml":
            return true
        default:
            return subtype.hasSuffix("+json") || subtype.hasSuffix("+xml")
        }
    }
}
