/// Checks that a request the parser produced is one the grammar allows (RFC 9112) and that its body is framed as
/// its head says: what a proxy in front would also have read, so nothing can be smuggled past it.
/// `decoded`: its body came with a gzip content coding that the parser decoded (its length is no longer the
/// framing's).
func checkRequest(_ parsed: HTTPRequestParser.Parsed, limits: HTTPRequestParser.Limits, decoded: Bool = false) {
    let request = parsed.request
    let method = Array(request.method.rawValue.utf8)
    fuzzCheck(!method.isEmpty && method.allSatisfy(ByteRules.isTokenChar), "method \(method)")
    fuzzCheck(HTTPMethod.implemented.contains(request.method), "unknown method \(request.method) accepted")

    // RFC 9112 §3.2: origin-form, or asterisk-form; visible ASCII only.
    let target = Array(request.target.utf8)
    fuzzCheck(target == [UInt8(ascii: "*")] || target.first == UInt8(ascii: "/"), "target \(request.target)")
    fuzzCheck(target.allSatisfy(ByteRules.isTargetChar), "target bytes \(target)")
    fuzzCheck(request.version == .http1_1 || request.version == .http1_0, "version \(request.version)")

    for field in request.headers.fields {
        let name = Array(field.name.utf8)
        let value = Array(field.value.utf8)
        fuzzCheck(!name.isEmpty && name.allSatisfy(ByteRules.isTokenChar), "field name \(name)")
        // No CR, LF or NUL ever reaches a handler, and values are trimmed (RFC 9110 §5.5).
        fuzzCheck(value.allSatisfy(ByteRules.isFieldValueChar), "field value \(value)")
        fuzzCheck(value.first.map { !ByteRules.isWhitespace($0) } ?? true, "value not trimmed \(value)")
        fuzzCheck(value.last.map { !ByteRules.isWhitespace($0) } ?? true, "value not trimmed \(value)")
    }

    // RFC 9112 §3.2: an HTTP/1.1 request has exactly one Host; no request has two.
    let hosts = request.headers.values("Host").count
    fuzzCheck(request.version == .http1_1 ? hosts == 1 : hosts <= 1, "\(hosts) Host fields in \(request.version)")
    if request.version == .http1_1 {
        for expect in request.headers.values("Expect") {
            fuzzCheck(expect.lowercased() == "100-continue", "expectation \(expect) accepted")
        }
    }
    let connection = request.headers.values("Connection").joined(separator: ",").lowercased()
    let options = connection.split(separator: ",").map { $0.trimmingSpaces }
    if options.contains("close") { fuzzCheck(!parsed.keepAlive, "keep-alive despite Connection: close") }
    if request.version == .http1_0, !options.contains("keep-alive") {
        fuzzCheck(!parsed.keepAlive, "HTTP/1.0 kept alive without asking")
    }

    checkFraming(request, limits: limits, decoded: decoded)
}

/// RFC 9112 §6.3: exactly one framing; a body of `Content-Length` bytes, or chunked; never more than the limit.
private func checkFraming(_ request: HTTPRequest, limits: HTTPRequestParser.Limits, decoded: Bool) {
    let lengths = request.headers.values("Content-Length")
    let codings = request.headers.values("Transfer-Encoding")
    fuzzCheck(lengths.isEmpty || codings.isEmpty, "both Content-Length and Transfer-Encoding accepted")

    var head = RequestHead()
    head.method = request.method
    head.target = request.target
    let limit = max(limits.maxBodySize, limits.maxBodySize(for: head))
    fuzzCheck(request.body.count <= limit, "body of \(request.body.count) bytes past the limit \(limit)")

    if codings.isEmpty {
        // Every listed length is the same number (RFC 9112 §6.3 ¶5), and it is the body's length.
        let elements = lengths.flatMap { $0.split(separator: ",").map { $0.trimmingSpaces } }.filter { !$0.isEmpty }
        let values = Set(elements.map { Int($0) })
        fuzzCheck(values.count <= 1, "conflicting Content-Length values \(elements) accepted")
        let expected = values.first.map { $0 ?? -1 } ?? 0
        fuzzCheck(decoded || request.body.count == expected, "body of \(request.body.count) bytes, Content-Length \(elements)")
    } else {
        fuzzCheck(request.version == .http1_1, "Transfer-Encoding accepted in \(request.version)")
        let last = codings.joined(separator: ",").split(separator: ",").map { $0.trimmingSpaces }.last { !$0.isEmpty }
        fuzzCheck(last?.lowercased().hasPrefix("chunked") == true, "final coding \(codings) is not chunked")
    }
}

extension Substring {
    /// Without leading and trailing SP and HTAB (OWS, RFC 9110 §5.6.3).
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// Whether a request's raw bytes name a gzip content coding in their head (the parser decodes such a body and drops
/// the field).
func rawHeadCodesGzip(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else { return false }
    let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).lowercased()
    return head.split(separator: "\r\n").contains { $0.hasPrefix("content-encoding:") && $0.contains("gzip") }
}
