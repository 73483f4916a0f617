/// The request line and header fields read so far, and the facts about them that framing and the
/// connection need (RFC 9112 §6.3), gathered while the fields are read so nothing is searched twice.
struct RequestHead {
    var method = HTTPMethod.get
    var target = ""
    var version = HTTPVersion.http1_1
    var fields: [(name: String, value: String)] = []

    /// The `Content-Length` value, once one was read; `Int.max` when it has more digits than fit.
    var contentLength: Int?
    /// Whether a `Transfer-Encoding` field was present.
    var hasTransferEncoding = false
    /// How many `chunked` codings were listed, and whether it was the last one.
    var chunkedCount = 0
    var lastCodingIsChunked = false
    /// Whether a coding other than `chunked` was listed.
    var hasOtherCoding = false
    var hostCount = 0
    /// `Connection: close` / `Connection: keep-alive` options (RFC 9112 §9.3, §9.6).
    var connectionClose = false
    var connectionKeepAlive = false
    var expectContinue = false
    var expectOther = false
    var clientRequestId: String?
    /// How many `gzip` (or `x-gzip`) content codings the body has (RFC 9110 §8.4), and the first coding listed
    /// that the server cannot decode.
    var gzipCodings = 0
    var unsupportedCoding: String?

    /// Whether the connection persists after this request (RFC 9112 §9.3).
    var keepAlive: Bool {
        if connectionClose { return false }
        return version == .http1_1 || connectionKeepAlive
    }
}
