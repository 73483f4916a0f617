/// The configuration as an event loop uses it: limits and timeouts in the units of the hot path.
struct LoopSettings: Sendable {
    let limits: HTTPRequestParser.Limits
    /// Milliseconds a client has to send a request head.
    let headerTimeout: Int64
    /// Milliseconds a connection may idle between requests, or stall a body or a write.
    let idleTimeout: Int64
    /// Milliseconds a client has to send a whole request, from its first byte.
    let requestTimeout: Int64
    /// Milliseconds of the body-rate window (and of the grace before the first check).
    let bodyRateWindow: Int64
    /// Bytes a body must bring in each window; 0 when the rate is not checked.
    let minimumBytesPerWindow: Int
    /// The configured rate, for the problem's detail.
    let minimumBodyRate: Int
    /// Milliseconds a closing connection keeps draining what the client still sends, so the kernel does not
    /// reset the connection under an answer the client has not read yet.
    let lingerTimeout: Int64 = 2000
    /// Bytes a stream's unsent backlog may hold.
    let maxStreamBacklog: Int
    /// Every stream's backlog together, shared by the loops (the settings are made once per server).
    let streamBacklogs: StreamBacklogTotal
    /// The `SO_SNDBUF` a streaming connection asks for: half the backlog bound, at least 4 KiB.
    var streamSendBuffer: Int { max(4096, maxStreamBacklog / 2) }
    let gzipMinimumSize: Int
    /// The server's connection counts, shared by its loops.
    let tally: ConnectionTally
    /// Which requests go to the worker pool, under which key (see `HTTPServerConfiguration.offloadKey`).
    let offloadKey: (@Sendable (HTTPRequest) -> String?)?
    /// Whether an upload may be read (see `HTTPServerConfiguration.uploadAdmission`).
    let uploadAdmission: (@Sendable (HTTPRequest) -> UploadAdmission)?
    /// `Name: value\r\n` of every fixed response header, made once.
    let fixedHeaderLines: [UInt8]

    init(_ configuration: HTTPServerConfiguration, tally: ConnectionTally = ConnectionTally()) {
        self.tally = tally
        limits = HTTPRequestParser.Limits(
            maxHeaderSize: max(256, configuration.maxHeaderSize), maxBodySize: max(0, configuration.maxBodySize),
            bodySizeLimit: configuration.bodySizeLimit)
        headerTimeout = max(1, configuration.headerReadTimeout.milliseconds)
        idleTimeout = max(1, configuration.idleTimeout.milliseconds)
        requestTimeout = max(1, configuration.requestTimeout.milliseconds)
        bodyRateWindow = max(1, configuration.bodyRateWindow.milliseconds)
        minimumBodyRate = max(0, configuration.minimumBodyRate)
        let (perWindow, overflow) = minimumBodyRate.multipliedReportingOverflow(by: Int(bodyRateWindow))
        minimumBytesPerWindow = overflow ? Int.max : perWindow / 1000
        maxStreamBacklog = max(1, configuration.maxStreamBacklog)
        streamBacklogs = StreamBacklogTotal(limit: configuration.maxStreamBacklogTotal)
        gzipMinimumSize = max(0, configuration.gzipMinimumSize)
        offloadKey = configuration.offloadKey
        uploadAdmission = configuration.uploadAdmission
        fixedHeaderLines = ResponseHead.lines(of: configuration.fixedResponseHeaders)
    }
}
