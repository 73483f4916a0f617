/// Serializes a response's status line and header fields into one byte buffer (RFC 9112 §4, §5).
enum ResponseHead {
    /// How the body that follows the head is delimited (RFC 9112 §6).
    enum Framing {
        /// `Content-Length: n`.
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
        /// Neither: the body ends when the connection closes (HTTP/1.0 streams).
        case closeDelimited
        /// No body and no length field (1xx, 204, 304).
        case none
    }

    /// Appends the head of a response to `out` and returns whether the connection stays open: false when
    /// `keepAlive` was false or the responder itself set `Connection: close`.
    ///
    /// The server's own fields replace any the responder set for `Content-Length`, `Transfer-Encoding`,
    /// `Connection` and `X-Request-Id`; `Date` is added unless the responder set one. CR, LF and NUL in values
    /// become spaces and fields whose names are not tokens are dropped, so a header cannot split the response.
    static func write(
        into out: inout [UInt8], status: HTTPStatus, headers: HTTPHeaders, framing: Framing,
        keepAlive: Bool, version: HTTPVersion, date: [UInt8], requestId: String, fixed: [UInt8] = []
    ) -> Bool {
        var keepAlive = keepAlive
        var hasDate = false
        // RFC 9110 §15: a status code is three digits; anything else from a responder becomes a 500.
        let status = (100...999).contains(status.code) ? status : .internalServerError
        // RFC 9110 §6.2: the server answers with its own highest minor version.
        out.append("HTTP/1.1 ")
        out.appendDecimal(status.code)
        out.append(32)
        appendSanitized(status.reasonPhrase, into: &out)
        out.append("\r\n")
        for (name, value) in headers.fields {
            switch name.utf8.count {
            case 4 where name.equalsLowercase("date"):
                hasDate = true
            case 10 where name.equalsLowercase("connection"):
                if value.listContains("close") { keepAlive = false }
                continue
            case 12 where name.equalsLowercase("x-request-id"):
                continue
            case 14 where name.equalsLowercase("content-length"):
                continue
            case 17 where name.equalsLowercase("transfer-encoding"):
                continue
            default:
                break
            }
            guard !name.isEmpty, name.utf8.allSatisfy(ByteRules.isTokenChar) else { continue }
            out.append(contentsOf: name.utf8)
            out.append(": ")
            appendSanitized(value, into: &out)
            out.append("\r\n")
        }
        if !hasDate, !date.isEmpty {
            out.append("Date: ")
            out.append(contentsOf: date)
            out.append("\r\n")
        }
        switch framing {
        case .length(let length):
            out.append("Content-Length: ")
            out.appendDecimal(length)
            out.append("\r\n")
        case .chunked:
            out.append("Transfer-Encoding: chunked\r\n")
        case .closeDelimited:
            keepAlive = false
        case .none:
            break
        }
        if !keepAlive {
            out.append("Connection: close\r\n")
        } else if version == .http1_0 {
            out.append("Connection: keep-alive\r\n")  // RFC 9112 §C.2.2
        }
        out.append(contentsOf: fixed)
        out.append("X-Request-Id: ")
        appendSanitized(requestId, into: &out)
        out.append("\r\n\r\n")
        return keepAlive
    }

    /// `Name: value\r\n` for each field whose name is a token, values sanitized (see ``write(into:status:headers:framing:keepAlive:version:date:requestId:fixed:)``).
    static func lines(of fields: [(name: String, value: String)]) -> [UInt8] {
        var out: [UInt8] = []
        for (name, value) in fields where !name.isEmpty && name.utf8.allSatisfy(ByteRules.isTokenChar) {
            out.append(contentsOf: name.utf8)
            out.append(contentsOf: ": ".utf8)
            appendSanitized(value, into: &out)
            out.append(contentsOf: "\r\n".utf8)
        }
        return out
    }

    /// Appends `text`, turning CR, LF and NUL into spaces.
    @inline(__always)
    private static func appendSanitized(_ text: String, into out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: text.utf8)
        for i in start..<out.count where out[i] < 32 && out[i] != ByteRules.tab {
            out[i] = 32
        }
    }
}
