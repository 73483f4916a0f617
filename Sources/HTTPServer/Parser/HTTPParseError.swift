/// Why a request could not be read; the connection answers with `status` and `detail` as a problem and closes.
struct HTTPParseError: Error, Equatable, Sendable {
    let status: HTTPStatus
    let detail: String
    /// The `Accept-Encoding` field of the answer, naming the content codings a request body may have
    /// (RFC 9110 §12.5.3), when the error is about one.
    var acceptEncoding: String? = nil

    static func badRequest(_ detail: String) -> HTTPParseError { HTTPParseError(status: .badRequest, detail: detail) }

    static let headTooLarge = HTTPParseError(
        status: .requestHeaderFieldsTooLarge, detail: "The request line and header fields are too large.")
    static let targetTooLong = HTTPParseError(status: .uriTooLong, detail: "The request target is too long.")
    static let bareLF = HTTPParseError(
        status: .badRequest, detail: "A line of the request ends in a bare LF; HTTP/1.1 lines end in CRLF.")
    static let bodyTooLarge = HTTPParseError(status: .contentTooLarge, detail: "The request body is too large.")
    /// The temporary file an upload's body is spooled to could not be made or written (a full disk).
    static let bodyUnstorable = HTTPParseError(
        status: .serviceUnavailable, detail: "The server cannot store the request body now; retry later.")
    static let decodedBodyTooLarge = HTTPParseError(
        status: .contentTooLarge, detail: "The request body is too large once decoded.")
    /// Inflating past ``BodyInflater/maximumRatio`` times its gzip size (and past ``BodyInflater/ratioFloor``).
    static let decodedBodyInflatesTooMuch = HTTPParseError(
        status: .contentTooLarge,
        detail: "The request body inflates to more than 100 times its gzip size (past 16 MiB): send it without Content-Encoding.")
    /// Past the lower limit its handler set for content that starts as this one does (answered with the handler's
    /// own problem).
    static let decodedContentTooLarge = HTTPParseError(
        status: .contentTooLarge, detail: "The request body is too large once decoded, for what it holds.")
}
