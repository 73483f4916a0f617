extension HTTPRequestParser {
    /// Judges a complete head: host, framing (RFC 9112 §6.3), method and expectations. Returns the event to
    /// report, or nil when the parser should go on reading a body that is already there (or empty).
    mutating func completeHead(bodyBytesAvailable: Int) -> Event? {
        // RFC 9112 §3.2: an HTTP/1.1 request has exactly one Host; no request has two.
        if head.hostCount > 1 { return .failure(.badRequest("The request has more than one Host field.")) }
        if head.hostCount == 0, head.version == .http1_1 { return .failure(.badRequest("The request has no Host field.")) }

        var chunked = false
        if head.hasTransferEncoding {
            // RFC 9112 §6.3 ¶3: both framings at once is a smuggling attempt.
            if head.contentLength != nil {
                return .failure(.badRequest("The request has both Content-Length and Transfer-Encoding."))
            }
            // RFC 9112 §6.1: HTTP/1.0 has no transfer codings.
            if head.version == .http1_0 { return .failure(.badRequest("Transfer-Encoding is not allowed in HTTP/1.0.")) }
            // RFC 9112 §6.3 ¶4: chunked must be the final coding, applied once.
            guard head.lastCodingIsChunked, head.chunkedCount == 1 else {
                return .failure(.badRequest("The final transfer coding is not chunked."))
            }
            if head.hasOtherCoding {
                return .failure(HTTPParseError(status: .notImplemented, detail: "Only the chunked transfer coding is supported."))
            }
            chunked = true
        }

        // RFC 9110 §9.1: an unknown method is 501.
        let method = head.method
        let common = method == .get || method == .post || method == .head
        if !common, !HTTPMethod.implemented.contains(method) {
            return .failure(HTTPParseError(status: .notImplemented, detail: "The method \(head.method) is not implemented."))
        }
        let expectContinue = head.expectContinue && head.version == .http1_1
        if head.expectOther, head.version == .http1_1 {
            return .failure(HTTPParseError(status: .expectationFailed, detail: "Only the 100-continue expectation is supported."))
        }

        bodyLimit = nil
        isUpload = false
        let length = head.contentLength ?? 0
        if chunked || length > 0 {
            if let error = contentCodingError() { return .failure(error) }
            // A route allowed past the general limit takes uploads: asked of every request with a body, once.
            isUpload = limits.bodySizeLimit != nil && currentBodyLimit() > limits.maxBodySize
        }
        if chunked {
            state = .chunkSize
            return pendingBody(expectsContinue: expectContinue && bodyBytesAvailable == 0)
        }
        if length > limits.maxBodySize, length > currentBodyLimit() { return .failure(.bodyTooLarge) }
        if length == 0 {
            state = .fixedBody(remaining: 0)
            return nil
        }
        // Reserved up to 1 MiB: an upload announced larger grows as its bytes really arrive (and is spooled).
        body.reserveCapacity(min(length, Self.spoolThreshold))
        state = .fixedBody(remaining: length)
        guard bodyBytesAvailable < length || isUpload else { return nil }
        return pendingBody(expectsContinue: expectContinue && bodyBytesAvailable == 0)
    }

    /// `bodyPending`, which an upload's head always reports (its body there already or not), so that the
    /// connection asks the server's admission of it before reading the body (``awaitsAdmission``).
    private mutating func pendingBody(expectsContinue: Bool) -> Event {
        awaitsAdmission = isUpload
        return .bodyPending(expectsContinue: expectsContinue)
    }

    /// Parses `chunk-size [ chunk-ext ]` (RFC 9112 §7.1); nil when it is acceptable.
    mutating func parseChunkSize(_ line: UnsafeRawBufferPointer) -> HTTPParseError? {
        var size = 0
        var index = 0
        while index < line.count, let digit = Self.hexValue(line[index]) {
            guard index < 15 else { return .badRequest("The chunk size is too large.") }
            size = size << 4 | Int(digit)
            index += 1
        }
        guard index > 0 else { return .badRequest("The chunk size is not hexadecimal.") }
        if index < line.count {
            // Nothing may follow the digits but `;` and extensions: no whitespace (a proxy in front may not
            // read `2 ` as 2), no other characters.
            if ByteRules.isWhitespace(line[index]) { return .badRequest("Whitespace follows the chunk size.") }
            // RFC 9112 §7.1.1: extensions follow a semicolon and are ignored.
            guard line[index] == UInt8(ascii: ";") else { return .badRequest("The chunk size is not hexadecimal.") }
            for c in line[index...] where !ByteRules.isFieldValueChar(c) {
                return .badRequest("A chunk extension contains a control character.")
            }
        }
        if size == 0 {
            state = .trailers
            headBytes = 0
            return nil
        }
        // Judged at the chunk's size line, before its data: a body is refused the moment it would pass its limit.
        let received = receivedBodyBytes
        if size > limits.maxBodySize - received, size > currentBodyLimit() - received { return .bodyTooLarge }
        state = .chunkData(remaining: size)
        return nil
    }

    /// The current request's body limit: `maxBodySize`, unless its route allows another. Asked only of a body
    /// that would pass `maxBodySize`, and once per request, so ordinary requests never pay for the lookup.
    mutating func currentBodyLimit() -> Int {
        if let bodyLimit { return bodyLimit }
        let limit = limits.maxBodySize(for: head)
        bodyLimit = limit
        return limit
    }

    @inline(__always)
    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 65...70: c - 55
        case 97...102: c - 87
        default: nil
        }
    }
}
