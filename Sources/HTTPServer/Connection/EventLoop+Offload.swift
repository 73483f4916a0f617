/// An answer made on the worker pool, on its way back to the loop that owns the connection.
struct OffloadedAnswer: Sendable {
    /// The connection's key (a closed connection's answer is dropped).
    var connection: UInt64
    var parsed: HTTPRequestParser.Parsed
    var requestId: String
    var response: HTTPResponse
}

extension EventLoop {
    /// Hands the request to the worker pool under `key`; the connection reads nothing more until the answer is
    /// written. When the pool has stopped (shutdown), leaves `awaitingAnswer` unset: the caller answers inline.
    func offload(
        _ parsed: HTTPRequestParser.Parsed, requestId: String, context: HTTPRequestContext, key: String,
        workers: WorkerPool, on connection: Connection
    ) {
        let connectionKey = connection.key
        let responder = self.responder
        connection.awaitingAnswer = workers.submit(key: key) { [self] in
            let response = Self.answer(parsed.request, context: context, responder: responder)
            enqueueAnswer(OffloadedAnswer(connection: connectionKey, parsed: parsed, requestId: requestId, response: response))
        }
        if connection.awaitingAnswer { rearmTimer(connection) }
    }

    /// Queues an answer for the loop to write (from a worker thread).
    func enqueueAnswer(_ answer: OffloadedAnswer) {
        inbox.withLock { $0.answers.append(answer) }
        wake()
    }

    /// Writes an offloaded (or held) answer, then takes up the requests that arrived behind it (loop thread). An
    /// answer that asks for a delay is held first (``hold(_:to:requestId:on:)``).
    func deliver(_ answer: OffloadedAnswer) {
        guard let connection = connection(for: answer.connection), connection.awaitingAnswer else { return }
        if holds(answer.response) {
            hold(answer.response, to: answer.parsed, requestId: answer.requestId, on: connection)
            return
        }
        connection.awaitingAnswer = false
        guard case .requests = connection.phase else { return }
        var out = takeOutBuffer()
        write(answer.response, to: answer.parsed, requestId: answer.requestId, on: connection, into: &out)
        flush(connection, &out)
        returnOutBuffer(&out)
        guard connections[Int(connection.fd)] === connection else { return }
        if case .requests = connection.phase, !connection.input.isEmpty {
            if connection.hasPendingOutput {
                connection.hasDeferredInput = true  // taken up once the socket took the answer
            } else {
                process(UnsafeRawBufferPointer(start: nil, count: 0), on: connection)
                return
            }
        }
        startPendingStream(connection)
        if connections[Int(connection.fd)] === connection {
            rearmTimer(connection)
            updateInterest(connection)
            followClient(connection)
        }
    }
}
