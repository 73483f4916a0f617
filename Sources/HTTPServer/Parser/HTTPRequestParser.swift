import Glibc

/// An incremental HTTP/1.1 request parser (RFC 9112). It is fed the unconsumed bytes of a connection, consumes
/// what it can and reports one event per call: a whole request, a request for `100 Continue`, a failure, or
/// that it needs more bytes. Head lines are consumed as they complete, body bytes as they arrive, so the caller
/// keeps at most one partial line.
struct HTTPRequestParser {
    /// The limits the parser enforces.
    struct Limits: Sendable {
        var maxHeaderSize: Int
        var maxBodySize: Int
        /// A request's own limit, when it has one (`HTTPServerConfiguration.bodySizeLimit`).
        var bodySizeLimit: (@Sendable (HTTPMethod, String) -> Int?)? = nil

        /// The largest body the request with this head may have.
        func maxBodySize(for head: RequestHead) -> Int {
            guard let bodySizeLimit else { return maxBodySize }
            // The target up to its query, found byte by byte (a split was ~5,000 instructions a request, callgrind).
            let target = head.target
            let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(target[..<$0]) } ?? target
            return bodySizeLimit(head.method, path).map { max(0, $0) } ?? maxBodySize
        }
    }

    /// A request and what the connection needs to know to answer it.
    struct Parsed: Sendable {
        var request: HTTPRequest
        /// Whether the connection may stay open after the answer (RFC 9112 §9.3).
        var keepAlive: Bool
        /// The client's `X-Request-Id` when it is 1–128 visible ASCII characters.
        var clientRequestId: String?
    }

    /// What one call to `parse` produced.
    enum Event {
        case needMore
        /// The head is complete and its body has not all arrived: the caller may answer from the head alone
        /// (`headRequest`) instead of reading the body. `expectsContinue`: the head asked for `100 Continue` and
        /// the body has not started to arrive (RFC 9110 §10.1.1).
        case bodyPending(expectsContinue: Bool)
        case request(Parsed)
        case failure(HTTPParseError)
    }

    enum State: Equatable {
        case requestLine
        case headers
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case failed
    }

    let limits: Limits
    var state: State = .requestLine
    /// Bytes of the current head (or trailer section) consumed so far.
    var headBytes = 0
    /// The request under construction.
    var head = RequestHead()
    var body: [UInt8] = []
    /// The current request's body limit once asked for (see `currentBodyLimit()`); nil until then.
    var bodyLimit: Int?
    /// Whether the current request's route allows a body past `maxBodySize` (an upload): its body is spooled
    /// past ``spoolThreshold``, it is admitted from its head (``awaitsAdmission``), and its gzip coding is
    /// removed by the worker that answers it rather than here.
    var isUpload = false
    /// Whether an upload's head was reported (`bodyPending`) and the connection has not yet asked the server's
    /// admission for it; the connection clears it.
    var awaitsAdmission = false
    /// What the admission handed out for the current upload, carried by the request it becomes.
    var lease: (any AnyObject & Sendable)?
    /// The upload's body once it passed ``spoolThreshold``; `body` is then empty.
    var spool: BodySpool?

    /// The size past which an upload's body goes to a temporary file instead of memory.
    static let spoolThreshold = 1 << 20

    init(limits: Limits) { self.limits = limits }

    /// Whether part of a request has been consumed and the request is not complete yet.
    var isMidRequest: Bool { state != .requestLine || headBytes > 0 }

    /// Whether the head is complete and the body is being read.
    var isReadingBody: Bool {
        switch state {
        case .fixedBody, .chunkSize, .chunkData, .chunkDataEnd, .trailers: true
        default: false
        }
    }

    /// The client's valid `X-Request-Id` among the fields read so far, for answering a failure.
    var clientRequestId: String? { head.clientRequestId }

    /// Consumes bytes from the front of `buffer` until an event; returns how many were consumed.
    mutating func parse(_ buffer: UnsafeRawBufferPointer) -> (consumed: Int, event: Event) {
        var offset = 0
        while true {
            switch state {
            case .requestLine, .headers:
                switch nextLine(buffer, &offset, limit: limits.maxHeaderSize) {
                case .needMore: return (offset, .needMore)
                case .failure(let error): return fail(offset, error)
                case .line(let line):
                    if state == .requestLine {
                        if line.isEmpty {
                            // RFC 9112 §2.2: ignore empty lines before the request line.
                            headBytes = 0
                            continue
                        }
                        if let error = parseRequestLine(line) { return fail(offset, error) }
                        state = .headers
                    } else if line.isEmpty {
                        switch completeHead(bodyBytesAvailable: buffer.count - offset) {
                        case .none: continue
                        case .some(.failure(let error)): return fail(offset, error)
                        case .some(let event): return (offset, event)
                        }
                    } else if let error = parseFieldLine(line) {
                        return fail(offset, error)
                    }
                }

            case .fixedBody(let remaining):
                let count = min(remaining, buffer.count - offset)
                if count > 0 {
                    if let error = appendBody(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])) {
                        return fail(offset, error)
                    }
                    offset += count
                }
                if count == remaining { return finish(offset) }
                state = .fixedBody(remaining: remaining - count)
                return (offset, .needMore)

            case .chunkSize:
                switch nextLine(buffer, &offset, limit: nil) {
                case .needMore: return (offset, .needMore)
                case .failure(let error): return fail(offset, error)
                case .line(let line):
                    if let error = parseChunkSize(line) { return fail(offset, error) }
                }

            case .chunkData(let remaining):
                let count = min(remaining, buffer.count - offset)
                if count > 0 {
                    if let error = appendBody(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])) {
                        return fail(offset, error)
                    }
                    offset += count
                }
                if count < remaining {
                    state = .chunkData(remaining: remaining - count)
                    return (offset, .needMore)
                }
                state = .chunkDataEnd

            case .chunkDataEnd:
                // RFC 9112 §7.1: chunk-data is followed by CRLF.
                // A bare LF is refused like everywhere else in the framing (see `nextLine`).
                guard offset < buffer.count else { return (offset, .needMore) }
                if buffer[offset] == ByteRules.cr {
                    guard offset + 1 < buffer.count else { return (offset, .needMore) }
                    guard buffer[offset + 1] == ByteRules.lf else { return fail(offset, .badRequest("Chunk data is not followed by CRLF.")) }
                    offset += 2
                } else if buffer[offset] == ByteRules.lf {
                    return fail(offset, .bareLF)
                } else {
                    return fail(offset, .badRequest("Chunk data is longer than its chunk size."))
                }
                state = .chunkSize

            case .trailers:
                // RFC 9112 §7.1.2: trailer fields are read and discarded; their size counts against the head limit.
                switch nextLine(buffer, &offset, limit: limits.maxHeaderSize) {
                case .needMore: return (offset, .needMore)
                case .failure(let error): return fail(offset, error)
                case .line(let line):
                    if line.isEmpty { return finish(offset) }
                }

            case .failed:
                return (offset, .failure(.badRequest("The connection had a malformed request.")))
            }
        }
    }

    mutating func fail(_ offset: Int, _ error: HTTPParseError) -> (consumed: Int, event: Event) {
        abandon()
        return (offset, .failure(error))
    }

    /// Gives up the current request: nothing more is parsed, and its body, spool and admission are let go now
    /// rather than when the connection is (a refused upload holds none of them while its answer is sent).
    mutating func abandon() {
        state = .failed
        body = []
        spool = nil
        lease = nil
        isUpload = false
        awaitsAdmission = false
    }

    /// The bytes of the current body received so far, in memory or spooled.
    var receivedBodyBytes: Int { spool?.count ?? body.count }

    /// Appends body bytes: to memory, or, for an upload past ``spoolThreshold``, to its spool (memory then holds
    /// none of it). Returns the error to fail with when the spool cannot be written.
    @inline(__always)
    mutating func appendBody(_ bytes: UnsafeRawBufferPointer) -> HTTPParseError? {
        if let spool { return spool.write(bytes) ? nil : .bodyUnstorable }
        if isUpload, body.count + bytes.count > Self.spoolThreshold {
            guard let spool = BodySpool() else { return .bodyUnstorable }
            let written = body.withUnsafeBytes { spool.write($0) } && spool.write(bytes)
            body = []
            self.spool = spool
            return written ? nil : .bodyUnstorable
        }
        body.append(contentsOf: bytes)
        return nil
    }

    private enum LineResult {
        case line(UnsafeRawBufferPointer)
        case needMore
        case failure(HTTPParseError)
    }

    /// The next line without its CRLF, counted against `limit` when given; a chunk-size line (no limit) may not
    /// exceed 1 KiB. A line ending in a bare LF is an error: RFC 9112 §2.2 lets a recipient accept one, but a
    /// proxy in front that does not would see other requests in the same bytes (request smuggling).
    private mutating func nextLine(_ buffer: UnsafeRawBufferPointer, _ offset: inout Int, limit: Int?) -> LineResult {
        let available = buffer.count - offset
        guard available > 0, let base = buffer.baseAddress else { return .needMore }
        let start = base + offset
        guard let found = memchr(start, Int32(ByteRules.lf), available) else {
            if let limit {
                if headBytes + available > limit { return .failure(state == .requestLine ? .targetTooLong : .headTooLarge) }
            } else if available > 1024 {
                return .failure(.badRequest("The chunk-size line is too long."))
            }
            return .needMore
        }
        let length = UnsafeRawPointer(found) - start
        if let limit {
            headBytes += length + 1
            if headBytes > limit { return .failure(state == .requestLine ? .targetTooLong : .headTooLarge) }
        } else if length > 1024 {
            // The same bound whether the line came in one read or in many.
            return .failure(.badRequest("The chunk-size line is too long."))
        }
        guard length > 0, start.load(fromByteOffset: length - 1, as: UInt8.self) == ByteRules.cr else { return .failure(.bareLF) }
        offset += length + 1
        return .line(UnsafeRawBufferPointer(start: start, count: length - 1))
    }

    /// The request read so far with an empty body, for judging it before its body is read.
    func headRequest() -> HTTPRequest {
        HTTPRequest(method: head.method, target: head.target, version: head.version, headers: HTTPHeaders(head.fields))
    }

    /// The finished request; the parser is reset for the next one on the connection.
    mutating func emit(spooled: SpooledBody? = nil, gzipLimit: Int? = nil) -> Parsed {
        var request = HTTPRequest(
            method: head.method, target: head.target, version: head.version,
            headers: HTTPHeaders(head.fields), body: body)
        if spooled != nil || lease != nil || gzipLimit != nil {
            request.extras = RequestBodyExtras(spooled: spooled, lease: lease, gzipLimit: gzipLimit)
        }
        let parsed = Parsed(request: request, keepAlive: head.keepAlive, clientRequestId: head.clientRequestId)
        state = .requestLine
        headBytes = 0
        head = RequestHead()
        body = []
        spool = nil
        lease = nil
        isUpload = false
        awaitsAdmission = false
        return parsed
    }
}
