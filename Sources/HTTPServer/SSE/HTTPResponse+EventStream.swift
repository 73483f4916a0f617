extension HTTPResponse {
    /// A `200` response streaming `text/event-stream` (WHATWG HTML §9.2.5) with `Cache-Control: no-store`
    /// (RFC 9111 §5.2.2.5), so no cache keeps a live stream. `start` receives the writer once the headers are
    /// sent and writes `ServerSentEvent.encoded()` and heartbeat `ServerSentEvent.comment(_:)` bytes to it.
    /// Fields in `headers` are kept, and win over these two defaults.
    public static func eventStream(
        headers: HTTPHeaders = HTTPHeaders(), start: @escaping @Sendable (any HTTPStreamWriter) -> Void
    ) -> HTTPResponse {
        var headers = headers
        if !headers.contains("Content-Type") { headers["Content-Type"] = ServerSentEvent.mediaType }
        if !headers.contains("Cache-Control") { headers["Cache-Control"] = "no-store" }
        return HTTPResponse(status: .ok, headers: headers, body: .stream(HTTPBodyStream(start: start)))
    }
}
