extension HTTPRequestParser {
    /// Parses `method SP request-target SP HTTP-version` (RFC 9112 §3); nil when it is acceptable.
    mutating func parseRequestLine(_ line: UnsafeRawBufferPointer) -> HTTPParseError? {
        guard let firstSpace = line.firstIndex(of: ByteRules.space),
              let lastSpace = line.lastIndex(of: ByteRules.space), lastSpace > firstSpace
        else { return .badRequest("The request line is malformed.") }

        let methodBytes = UnsafeRawBufferPointer(rebasing: line[..<firstSpace])
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(ByteRules.isTokenChar) else {
            return .badRequest("The request method is not a token.")
        }
        let versionBytes = UnsafeRawBufferPointer(rebasing: line[(lastSpace + 1)...])
        switch Self.parseVersion(versionBytes) {
        case .none: return .badRequest("The HTTP version is malformed.")
        case .some(let version) where version != .http1_1 && version != .http1_0:
            // RFC 9110 §15.6.6: only HTTP/1.0 and HTTP/1.1 are served.
            return HTTPParseError(status: .httpVersionNotSupported, detail: "Only HTTP/1.0 and HTTP/1.1 are supported.")
        case .some(let version): head.version = version
        }
        let targetBytes = UnsafeRawBufferPointer(rebasing: line[(firstSpace + 1)..<lastSpace])
        guard !targetBytes.isEmpty, targetBytes.allSatisfy(ByteRules.isTargetChar) else {
            return .badRequest("The request target is malformed.")
        }
        guard let target = Self.originForm(targetBytes) else { return .badRequest("The request target is malformed.") }
        head.method = Self.method(methodBytes)
        head.target = target
        return nil
    }

    /// `HTTP/DIGIT.DIGIT` (RFC 9112 §2.3), nil when malformed.
    static func parseVersion(_ bytes: UnsafeRawBufferPointer) -> HTTPVersion? {
        guard bytes.count == 8, bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"),
              bytes[2] == UInt8(ascii: "T"), bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/"),
              bytes[6] == UInt8(ascii: "."), (48...57).contains(bytes[5]), (48...57).contains(bytes[7])
        else { return nil }
        return HTTPVersion(major: Int(bytes[5] - 48), minor: Int(bytes[7] - 48))
    }

    /// The target as origin-form: absolute-form (RFC 9112 §3.2.2) loses its scheme and authority,
    /// asterisk-form stays `*`; nil for authority-form or anything else.
    static func originForm(_ bytes: UnsafeRawBufferPointer) -> String? {
        if bytes[0] == UInt8(ascii: "/") || (bytes.count == 1 && bytes[0] == UInt8(ascii: "*")) {
            return ByteRules.string(bytes)
        }
        for scheme: StaticString in ["http://", "https://"] {
            let length = scheme.utf8CodeUnitCount
            guard bytes.count > length, ByteRules.equalsLowercase(UnsafeRawBufferPointer(rebasing: bytes[..<length]), scheme)
            else { continue }
            let rest = UnsafeRawBufferPointer(rebasing: bytes[length...])
            guard let slash = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) else { return "/" }
            let path = ByteRules.string(UnsafeRawBufferPointer(rebasing: rest[slash...]))
            return path.hasPrefix("?") ? "/" + path : path
        }
        return nil
    }

    /// The method, reusing the shared constants for the common ones.
    static func method(_ bytes: UnsafeRawBufferPointer) -> HTTPMethod {
        switch bytes.count {
        case 3 where bytes[0] == UInt8(ascii: "G") && bytes[1] == UInt8(ascii: "E") && bytes[2] == UInt8(ascii: "T"): .get
        case 4 where bytes[0] == UInt8(ascii: "P") && bytes[1] == UInt8(ascii: "O") && bytes[3] == UInt8(ascii: "T"): .post
        case 4 where bytes[0] == UInt8(ascii: "H") && bytes[1] == UInt8(ascii: "E") && bytes[3] == UInt8(ascii: "D"): .head
        default: HTTPMethod(rawValue: ByteRules.string(bytes))
        }
    }

    /// Parses `field-name ":" OWS field-value OWS` (RFC 9112 §5); nil when it is acceptable.
    mutating func parseFieldLine(_ line: UnsafeRawBufferPointer) -> HTTPParseError? {
        // RFC 9112 §5.2: obs-fold is rejected; so is whitespace before the first field (§2.2).
        if ByteRules.isWhitespace(line[0]) { return .badRequest("Obsolete line folding is not accepted.") }
        guard let colon = line.firstIndex(of: ByteRules.colon) else { return .badRequest("A header field has no colon.") }
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        guard !name.isEmpty else { return .badRequest("A header field has an empty name.") }
        for c in name where !ByteRules.isTokenChar(c) {
            // RFC 9112 §5.1: no whitespace is allowed between the field name and colon.
            if ByteRules.isWhitespace(c) { return .badRequest("Whitespace between a header field name and colon.") }
            return .badRequest("A header field name has an invalid character.")
        }
        let value = ByteRules.trimmingWhitespace(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
        for c in value where !ByteRules.isFieldValueChar(c) {
            // RFC 9112 §2.2: a bare CR is invalid outside the line terminator.
            if c == ByteRules.cr { return .badRequest("A header field value contains a bare CR.") }
            return .badRequest("A header field value contains a control character.")
        }
        if let error = noteSpecialField(name, value) { return error }
        if head.fields.capacity == 0 { head.fields.reserveCapacity(8) }
        head.fields.append((name: ByteRules.string(name), value: ByteRules.string(value)))
        return nil
    }

    /// Records the fields that decide framing, persistence and identity.
    private mutating func noteSpecialField(_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> HTTPParseError? {
        switch name.count {
        case 4 where ByteRules.equalsLowercase(name, "host"):
            head.hostCount += 1
        case 6 where ByteRules.equalsLowercase(name, "expect"):
            // RFC 9110 §10.1.1
            if ByteRules.equalsLowercase(value, "100-continue") { head.expectContinue = true } else { head.expectOther = true }
        case 10 where ByteRules.equalsLowercase(name, "connection"):
            ByteRules.forEachListElement(value) { option in
                if ByteRules.equalsLowercase(option, "close") { head.connectionClose = true }
                if ByteRules.equalsLowercase(option, "keep-alive") { head.connectionKeepAlive = true }
                return true
            }
        case 12 where ByteRules.equalsLowercase(name, "x-request-id"):
            if (1...128).contains(value.count), value.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
                head.clientRequestId = ByteRules.string(value)
            }
        case 14 where ByteRules.equalsLowercase(name, "content-length"):
            return noteContentLength(value)
        case 16 where ByteRules.equalsLowercase(name, "content-encoding"):
            noteContentEncoding(value)
        case 17 where ByteRules.equalsLowercase(name, "transfer-encoding"):
            noteTransferEncoding(value)
        default:
            break
        }
        return nil
    }

    /// RFC 9112 §6.3 ¶5: a list of identical lengths is that length; differing or invalid ones are an error.
    private mutating func noteContentLength(_ value: UnsafeRawBufferPointer) -> HTTPParseError? {
        var error: HTTPParseError?
        var sawElement = false
        ByteRules.forEachListElement(value) { element in
            sawElement = true
            guard element.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                error = .badRequest("Content-Length is not a number.")
                return false
            }
            var length = 0
            if element.count > 18 {
                length = Int.max
            } else {
                for digit in element { length = length * 10 + Int(digit - 48) }
            }
            if let previous = head.contentLength, previous != length {
                error = .badRequest("The request has conflicting Content-Length values.")
                return false
            }
            head.contentLength = length
            return true
        }
        if !sawElement { return .badRequest("Content-Length is empty.") }
        return error
    }

    /// Records the transfer codings (RFC 9112 §6.1); judged once the head is complete.
    private mutating func noteTransferEncoding(_ value: UnsafeRawBufferPointer) {
        head.hasTransferEncoding = true
        ByteRules.forEachListElement(value) { element in
            let coding = ByteRules.trimmingWhitespace(
                UnsafeRawBufferPointer(rebasing: element[..<(element.firstIndex(of: UInt8(ascii: ";")) ?? element.count)]))
            if ByteRules.equalsLowercase(coding, "chunked") {
                head.chunkedCount += 1
                head.lastCodingIsChunked = true
            } else {
                head.hasOtherCoding = true
                head.lastCodingIsChunked = false
            }
            return true
        }
    }
}
