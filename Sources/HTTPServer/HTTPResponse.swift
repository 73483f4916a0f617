/// A response to be written: status, headers and a body that is either whole or streamed.
///
/// The server adds `Date`, `Content-Length` (sized bodies), `Transfer-Encoding: chunked` (streams to HTTP/1.1
/// clients), `Connection` and `X-Request-Id` itself, and gzips sized bodies over 1 KiB when the client accepts it.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: HTTPBody
    /// How long the server holds a sized answer before it sends it; the connection reads nothing more meanwhile
    /// (it costs a timer entry, no thread). For refusals a client cannot act on sooner anyway, such as a `429`
    /// whose `Retry-After` has not passed: a client that asks again at once, without waiting, gets its answers
    /// at that pace instead of as fast as the server can make them. Zero (the default) sends at once; at
    /// shutdown held answers go out at once.
    public var delay: Duration = .zero

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: HTTPBody = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A sized response with `bytes` as its body and `contentType` as its `Content-Type`.
    public init(status: HTTPStatus = .ok, contentType: String, bytes: [UInt8], headers: HTTPHeaders = HTTPHeaders()) {
        var headers = headers
        headers["Content-Type"] = contentType
        self.init(status: status, headers: headers, body: .bytes(bytes))
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", bytes: Array(text.utf8))
    }
}

/// The body of a response.
public enum HTTPBody: Sendable {
    /// A whole body, sent with `Content-Length`.
    case bytes([UInt8])
    /// An open-ended body produced over time (Server-Sent Events): chunked for HTTP/1.1, close-delimited for 1.0.
    case stream(HTTPBodyStream)
}

/// An open-ended body. Once the headers are on the wire the server calls `start` with a writer bound to the
/// connection; the producer keeps the writer and writes from any thread until it finishes or the stream closes.
public struct HTTPBodyStream: Sendable {
    public let start: @Sendable (any HTTPStreamWriter) -> Void
    public init(start: @escaping @Sendable (any HTTPStreamWriter) -> Void) { self.start = start }
}

/// The producer's side of a streamed body. Writes are queued and flushed by the connection's event loop, so a
/// slow client never blocks the producer: a write that would take the stream's unsent backlog past
/// `backlogLimit` closes the stream instead (the client fell behind). A producer with a lot to send (a replay)
/// paces itself with `backlog` and `whenBacklog(atMost:_:)` instead of writing everything at once.
public protocol HTTPStreamWriter: AnyObject, Sendable {
    /// Queues `bytes` for the client; false when the stream is already closed (nothing is queued then).
    @discardableResult func write(_ bytes: [UInt8]) -> Bool
    /// Ends the body (the terminating chunk for HTTP/1.1) and then the stream.
    func finish()
    /// Whether writes are still accepted.
    var isOpen: Bool { get }
    /// Registers `handler` to run once when the stream ends for any reason: finished, client gone, buffer
    /// overflow or server shutdown. Runs at once when the stream has already ended.
    func onClose(_ handler: @escaping @Sendable () -> Void)
    /// Bytes written and not yet handed to the socket (queued, or taken by the loop and not sent yet).
    var backlog: Int { get }
    /// The most bytes `backlog` may reach: a write past it closes the stream (one write into an empty backlog
    /// is always taken, however large). `Int.max` when unbounded.
    var backlogLimit: Int { get }
    /// Runs `handler` once, on whichever thread sees it, when `backlog` is at most `threshold`: at once if it is
    /// already. Never runs once the stream has ended (`onClose` says so). Keep the handler short: it may run on
    /// the server's event loop.
    func whenBacklog(atMost threshold: Int, _ handler: @escaping @Sendable () -> Void)
}

extension HTTPStreamWriter {
    /// A writer that does not count its backlog has none.
    public var backlog: Int { 0 }
    /// A writer that does not count its backlog has no limit.
    public var backlogLimit: Int { .max }
    /// A writer without a backlog is always drained.
    public func whenBacklog(atMost threshold: Int, _ handler: @escaping @Sendable () -> Void) {
        if isOpen { handler() }
    }
}
