import Glibc
import Logging

extension EventLoop {
    /// Answers one request: on this loop, appending the answer to `out`, or, when the server offloads it, on the
    /// worker pool (the connection then waits for it, see `EventLoop+Offload`). `inline` keeps it on the loop,
    /// and sends it at once even when it asks for a delay (an answer given before the body closes the connection).
    func respond(
        to parsed: HTTPRequestParser.Parsed, on connection: Connection, into out: inout [UInt8], inline: Bool = false
    ) {
        let request = parsed.request
        if let credentials = request.headers["Authorization"] { connection.client = credentials.hashValue }
        let requestId = parsed.clientRequestId ?? requestIds.next()
        let context = HTTPRequestContext(requestId: requestId, logger: logger, remoteAddress: connection.remoteAddress)
        if !inline, let workers, let key = settings.offloadKey?(request) {
            offload(parsed, requestId: requestId, context: context, key: key, workers: workers, on: connection)
            if connection.awaitingAnswer { return }
        }
        let response = Self.answer(request, context: context, responder: responder)
        if !inline, holds(response) {
            hold(response, to: parsed, requestId: requestId, on: connection)
            return
        }
        write(response, to: parsed, requestId: requestId, on: connection, into: &out)
    }

    /// The responder's answer to `request`. The one place thrown errors are turned into answers: an
    /// `HTTPResponseError` renders itself, anything else is logged and answered with a generic `500`. Any thread.
    static func answer(_ request: HTTPRequest, context: HTTPRequestContext, responder: any HTTPResponder) -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            response = error.response()
        } catch {
            context.logger.error(
                "Unhandled error while answering a request",
                metadata: ["error": "\(String(reflecting: error))", "method": "\(request.method)", "target": "\(request.target)"])
            response = HTTPProblem(status: .internalServerError, detail: "An internal error occurred.").response()
        }
        if !(100...999).contains(response.status.code) {
            context.logger.error("Responder answered with an invalid status code", metadata: ["code": "\(response.status.code)"])
            response = HTTPProblem(status: .internalServerError, detail: "An internal error occurred.").response()
        }
        request.extras?.endLease()  // an upload's slot is free before its answer can reach the client
        return response
    }

    /// Appends `response`, the answer to `parsed`, to `out` (loop thread).
    func write(
        _ response: HTTPResponse, to parsed: HTTPRequestParser.Parsed, requestId: String, on connection: Connection,
        into out: inout [UInt8]
    ) {
        let request = parsed.request
        let keepAlive = parsed.keepAlive && !isShuttingDown
        switch response.body {
        case .bytes(let body):
            writeSized(response, body: body, for: request, keepAlive: keepAlive, requestId: requestId, on: connection, into: &out)
        case .stream(let stream):
            writeStreamHead(response, stream: stream, for: request, keepAlive: keepAlive, requestId: requestId, on: connection, into: &out)
        }
    }

    /// Answers a request whose body has not all arrived when the responder says its head settles the answer
    /// (no route, a wrong method, a refused credential): the answer goes out now with `Connection: close` and
    /// the body is never read. Returns whether it answered.
    func answerBeforeBody(on connection: Connection, into out: inout [UInt8]) -> Bool {
        let head = connection.parser.headRequest()
        let clientRequestId = connection.parser.clientRequestId
        let context = HTTPRequestContext(
            requestId: clientRequestId ?? "", logger: logger, remoteAddress: connection.remoteAddress)
        guard responder.answersWithoutBody(head, context: context) else { return false }
        connection.parser.abandon()  // an upload's spool and admission go now, not with the connection
        respond(
            to: HTTPRequestParser.Parsed(request: head, keepAlive: false, clientRequestId: clientRequestId), on: connection,
            into: &out, inline: true)
        if case .requests = connection.phase { connection.phase = .closing }
        connection.input = []
        return true
    }

    /// A whole body: gzipped when negotiated, `Content-Length` framed, omitted for HEAD, 1xx, 204 and 304.
    private func writeSized(
        _ response: HTTPResponse, body: [UInt8], for request: HTTPRequest, keepAlive: Bool, requestId: String,
        on connection: Connection, into out: inout [UInt8]
    ) {
        let code = response.status.code
        // RFC 9110 §6.4.1: 1xx, 204 and 304 answers have no content.
        let hasContent = code >= 200 && code != 204 && code != 304
        var headers = response.headers
        var body = body
        if hasContent, body.count >= settings.gzipMinimumSize, body.count > 0 {
            compressIfAccepted(&body, headers: &headers, request: request)
        }
        let stayOpen = ResponseHead.write(
            into: &out, status: response.status, headers: headers, framing: hasContent ? .length(body.count) : .none,
            keepAlive: keepAlive, version: request.version, date: dateCache.value, requestId: requestId,
            fixed: settings.fixedHeaderLines)
        // RFC 9110 §9.3.2: HEAD gets the same fields as GET, and no content.
        if hasContent, request.method != .head { out.append(contentsOf: body) }
        if !stayOpen { connection.phase = .closing }
    }

    /// gzips `body` when its type compresses well, it is not encoded yet and the client accepts gzip
    /// (RFC 9110 §8.4, §12.5.3); marks the answer as varying with `Accept-Encoding` either way.
    private func compressIfAccepted(_ body: inout [UInt8], headers: inout HTTPHeaders, request: HTTPRequest) {
        guard !headers.contains("Content-Encoding"), let contentType = headers["Content-Type"],
              ContentCoding.isCompressible(contentType: contentType)
        else { return }
        if let vary = headers["Vary"] {
            if !vary.listContains("accept-encoding"), !vary.listContains("*") { headers["Vary"] = vary + ", Accept-Encoding" }
        } else {
            headers.add("Vary", "Accept-Encoding")
        }
        guard let acceptEncoding = request.headers["Accept-Encoding"], ContentCoding.acceptsGzip(acceptEncoding),
              let compressed = Gzip.compress(body), compressed.count < body.count
        else { return }
        body = compressed
        headers.add("Content-Encoding", "gzip")
    }

    /// A streamed body: the head now, chunked for HTTP/1.1 and close-delimited for 1.0; the producer starts
    /// once the head is flushed. The connection closes when the stream ends, so the head says so.
    private func writeStreamHead(
        _ response: HTTPResponse, stream: HTTPBodyStream, for request: HTTPRequest, keepAlive: Bool,
        requestId: String, on connection: Connection, into out: inout [UInt8]
    ) {
        let chunked = request.version == .http1_1
        if request.method == .head {
            let stayOpen = ResponseHead.write(
                into: &out, status: response.status, headers: response.headers, framing: chunked ? .chunked : .closeDelimited,
                keepAlive: keepAlive, version: request.version, date: dateCache.value, requestId: requestId,
            fixed: settings.fixedHeaderLines)
            if !stayOpen { connection.phase = .closing }
            return
        }
        _ = ResponseHead.write(
            into: &out, status: response.status, headers: response.headers, framing: chunked ? .chunked : .closeDelimited,
            keepAlive: false, version: request.version, date: dateCache.value, requestId: requestId,
            fixed: settings.fixedHeaderLines)
        let writer = ConnectionStreamWriter(
            loop: self, key: connection.key, chunked: chunked, limit: settings.maxStreamBacklog, total: settings.streamBacklogs)
        boundSendBuffer(of: connection)
        connection.phase = .streaming(writer)
        connection.pendingStream = stream
        connection.input = []
    }

    /// Caps the kernel's send buffer of a connection that starts streaming: left to autotuning, a socket whose
    /// client stops reading grows it to megabytes (`tcp_wmem`), memory the backlog bound would not count. Half
    /// the backlog bound is asked for; Linux doubles it for its bookkeeping (socket(7)).
    private func boundSendBuffer(of connection: Connection) {
        var size = Int32(clamping: settings.streamSendBuffer)
        _ = setsockopt(connection.fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// The server's own answer to a request it could not read: a problem document, then close.
    func writeProblem(
        _ status: HTTPStatus, detail: String, acceptEncoding: String? = nil, for connection: Connection, into out: inout [UInt8]
    ) {
        let requestId = connection.parser.clientRequestId ?? requestIds.next()
        settings.tally.refused(status: status.code)
        var headers = HTTPHeaders()
        if let acceptEncoding { headers.add("Accept-Encoding", acceptEncoding) }
        let response = HTTPProblem(status: status, detail: detail, headers: headers).response()
        guard case .bytes(let body) = response.body else { return }
        _ = ResponseHead.write(
            into: &out, status: status, headers: response.headers, framing: .length(body.count),
            keepAlive: false, version: .http1_1, date: dateCache.value, requestId: requestId,
            fixed: settings.fixedHeaderLines)
        out.append(contentsOf: body)
    }
}

extension EventLoop {
    /// Asks the server's `uploadAdmission` about the upload whose head was just read, before its body is: an
    /// admitted one's lease goes with the parser into the request; a refused one is answered now, with
    /// `Connection: close`, and its body never read. Returns whether the body may be read.
    func admitUpload(on connection: Connection, into out: inout [UInt8]) -> Bool {
        connection.parser.awaitsAdmission = false
        guard let admission = settings.uploadAdmission else { return true }
        let head = connection.parser.headRequest()
        switch admission(head) {
        case .admitted(let lease):
            connection.parser.lease = lease
            return true
        case .refused(let response):
            let clientRequestId = connection.parser.clientRequestId
            let parsed = HTTPRequestParser.Parsed(request: head, keepAlive: false, clientRequestId: clientRequestId)
            settings.tally.refused(status: response.status.code)
            let requestId = clientRequestId ?? requestIds.next()
            if holds(response) {
                // A refusal that asks for a delay is held on a timer, the connection reading nothing meanwhile: a
                // client that asks again at once, as a flood does, gets one refusal per delay on each connection
                // instead of thousands a second, each a connection the loops would accept, read and close.
                connection.parser.abandon()
                connection.input = []
                hold(response, to: parsed, requestId: requestId, on: connection)
                return false
            }
            write(response, to: parsed, requestId: requestId, on: connection, into: &out)
            connection.parser.abandon()
            if case .requests = connection.phase { connection.phase = .closing }
            connection.input = []
            return false
        }
    }
}
