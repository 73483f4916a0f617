import Glibc

/// How an `HTTPServer` listens, how many event loops it runs and the limits it enforces on clients.
public struct HTTPServerConfiguration: Sendable {
    /// The address to listen on: an IPv4 literal, `"localhost"` (127.0.0.1), `"0.0.0.0"` for every interface,
    /// or an IPv6 literal (`"::1"`, `"::"`).
    public var host: String
    /// The TCP port; `0` asks the kernel for an ephemeral one (read it back from `HTTPServer.localPort`).
    public var port: Int
    /// How many event-loop threads serve connections; each owns an epoll instance. At least 1.
    public var eventLoopCount: Int
    /// Where the loops run and which loop an accepted connection goes to (see ``LoopPlacement``).
    public var loopPlacement: LoopPlacement
    /// The largest request body accepted, in bytes; a larger one is answered `413 Content Too Large`.
    public var maxBodySize: Int
    /// A larger (or smaller) body limit for some requests, such as uploads, by method and path (the target
    /// without its query, still percent-encoded); nil, or an answer of nil, keeps `maxBodySize`. A request whose
    /// limit is larger is an upload: past 1 MiB its body is spooled to an unlinked temporary file in `$TMPDIR`
    /// (``HTTPRequest/spooledBody``, read with ``HTTPRequest/withBodyBytes(_:)``), its gzip coding is removed by
    /// the worker that answers it, and it is admitted from its head (``uploadAdmission``).
    public var bodySizeLimit: (@Sendable (_ method: HTTPMethod, _ path: String) -> Int?)?
    /// The largest request head (request line and header fields) accepted, in bytes;
    /// a larger one is answered `431 Request Header Fields Too Large`.
    public var maxHeaderSize: Int
    /// How long a client may take to send a request head, from its first byte (or from connecting):
    /// past it the server answers `408 Request Timeout` and closes.
    public var headerReadTimeout: Duration
    /// How long a keep-alive connection may sit idle between requests (and how long a body or a write
    /// may stall, a streamed response's included: a stream whose client takes none of the bytes waiting for it for
    /// this long is closed) before the server closes it.
    public var idleTimeout: Duration
    /// How long a client may take to send a whole request, head and body, from its first byte: past it the
    /// server answers `408 Request Timeout` and closes. It bounds a body sent just above `minimumBodyRate`.
    public var requestTimeout: Duration
    /// The slowest a request body may arrive, in bytes per second, measured over each `bodyRateWindow` once the
    /// head is read (the first window is the grace period): a slower body is answered `408` and the connection
    /// closed, so a client trickling bytes cannot hold a connection. 0 turns the check off.
    public var minimumBodyRate: Int
    /// The window over which `minimumBodyRate` is measured, and the grace period before the first measure.
    public var bodyRateWindow: Duration
    /// Per streamed response: the most bytes written by the producer and not yet accepted by the socket (the
    /// stream's unsent backlog). A write that would pass it means the client fell behind: the stream is closed
    /// (see `HTTPStreamWriter`), so a client that stops reading costs at most this much. Producers with a lot to
    /// send pace themselves to it with `HTTPStreamWriter.whenBacklog(atMost:_:)`. The kernel's send buffer of a
    /// streaming connection is capped to match (`SO_SNDBUF` of half this, which Linux doubles), so that the kernel
    /// does not hold megabytes for a client that stopped reading either.
    public var maxStreamBacklog: Int
    /// All streamed responses together: the most bytes their backlogs may hold at once. Past it the streams furthest
    /// behind are ended as streams that fell behind (`StreamBacklogTotal`), so that many lagging streams cannot hold
    /// `maxStreamBacklog` each.
    public var maxStreamBacklogTotal: Int = 32 << 20
    /// The smallest sized body the server gzips when the client accepts it.
    public var gzipMinimumSize: Int
    /// The listen backlog passed to `listen(2)`.
    public var backlog: Int32
    /// Which requests are answered off the event loops, and the key they queue under: nil (the default, or a
    /// nil answer) answers the request on the loop that read it, which suits answers that never wait; a key
    /// hands it to a pool of ``workerCount`` threads that take keys in turn, so requests that may wait (on a
    /// database lock, a commit) neither stall the other connections of their loop nor, one key flooding,
    /// starve another key. A connection reads no further request until its answer is written.
    public var offloadKey: (@Sendable (HTTPRequest) -> String?)?
    /// The threads that answer offloaded requests. At least 1.
    public var workerCount: Int
    /// Whether an upload may be read: asked once for each request whose route allows a body past `maxBodySize`
    /// (``bodySizeLimit``), from its head (an empty body), before any of its body is read. `.admitted` may hand
    /// out a lease (a per-tenant slot), which the request holds until its answer is written or the connection
    /// goes, whichever way it ends; `.refused` is answered at once and the connection closed, the body unread.
    public var uploadAdmission: (@Sendable (HTTPRequest) -> UploadAdmission)?
    /// Header fields every answer carries, the server's own refusals (`408`, `431`, …) included: a shard's id behind
    /// a proxy, say. Names that are not tokens are dropped; CR, LF and NUL in values become spaces.
    public var fixedResponseHeaders: [(name: String, value: String)] = []

    /// A configuration; every parameter has the documented default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        eventLoopCount: Int = HTTPServerConfiguration.activeProcessorCount,
        loopPlacement: LoopPlacement = .perProcessor,
        maxBodySize: Int = 1 << 20,
        maxHeaderSize: Int = 16 * 1024,
        headerReadTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(60),
        requestTimeout: Duration = .seconds(60),
        minimumBodyRate: Int = 1024,
        bodyRateWindow: Duration = .seconds(10),
        maxStreamBacklog: Int = 64 * 1024,
        gzipMinimumSize: Int = 1024,
        backlog: Int32 = 1024,
        workerCount: Int = HTTPServerConfiguration.activeProcessorCount,
        offloadKey: (@Sendable (HTTPRequest) -> String?)? = nil,
        bodySizeLimit: (@Sendable (_ method: HTTPMethod, _ path: String) -> Int?)? = nil
    ) {
        self.host = host
        self.port = port
        self.eventLoopCount = eventLoopCount
        self.loopPlacement = loopPlacement
        self.maxBodySize = maxBodySize
        self.maxHeaderSize = maxHeaderSize
        self.headerReadTimeout = headerReadTimeout
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.minimumBodyRate = minimumBodyRate
        self.bodyRateWindow = bodyRateWindow
        self.maxStreamBacklog = maxStreamBacklog
        self.gzipMinimumSize = gzipMinimumSize
        self.backlog = backlog
        self.workerCount = workerCount
        self.offloadKey = offloadKey
        self.bodySizeLimit = bodySizeLimit
    }

    /// The processors the process may use (``ProcessorCount/available``), the default `eventLoopCount`.
    public static var activeProcessorCount: Int { ProcessorCount.available }
}
