import Glibc

extension EventLoop {
    /// Reads once (the registration is level-triggered, so more data wakes the loop again) and acts on it.
    func handleReadable(_ connection: Connection) {
        let count = recv(connection.fd, readBuffer.baseAddress, readBuffer.count, 0)
        if count > 0 {
            connection.bytesRead &+= count
            let bytes = UnsafeRawBufferPointer(start: readBuffer.baseAddress, count: count)
            switch connection.phase {
            case .requests:
                process(bytes, on: connection)
            case .streaming, .closing, .lingering:
                break  // nothing more is read from a streaming or closing connection
            }
            return
        }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
        // The client closed (or reset) its side: no further request can arrive.
        if count == 0, case .requests = connection.phase, connection.hasPendingOutput {
            connection.phase = .closing
            updateInterest(connection)
            return
        }
        close(connection)
    }

    /// The most answer bytes queued from one batch of pipelined requests; the rest of the batch waits until
    /// the socket has taken them, so a client cannot make the server buffer without bound.
    static let maxQueuedAnswerBytes = 1 << 20

    /// Parses and answers every complete request in `bytes` (after any partial line kept from before), in
    /// order, then writes all the answers at once.
    func process(_ bytes: UnsafeRawBufferPointer, on connection: Connection) {
        var out = takeOutBuffer()
        var bytes = bytes
        while true {
            consume(bytes, on: connection, into: &out)
            flush(connection, &out)
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            // Answers deferred for size go out once the socket took the earlier ones.
            guard connection.hasDeferredInput, !connection.hasPendingOutput, case .requests = connection.phase,
                  connections[Int(connection.fd)] === connection
            else { break }
        }
        returnOutBuffer(&out)
        startPendingStream(connection)
        if connections[Int(connection.fd)] === connection {
            rearmTimer(connection)
            followClient(connection)
        }
    }

    /// Parses `bytes` after the kept partial input, answering into `out`; keeps what is left unconsumed.
    private func consume(_ bytes: UnsafeRawBufferPointer, on connection: Connection, into out: inout [UInt8]) {
        connection.hasDeferredInput = false
        if connection.input.isEmpty {
            let consumed = parseAndRespond(bytes, on: connection, into: &out)
            if consumed < bytes.count, case .requests = connection.phase {
                connection.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[consumed...]))
            }
        } else {
            var input = connection.input
            connection.input = []
            input.append(contentsOf: bytes)
            let consumed = input.withUnsafeBytes { parseAndRespond($0, on: connection, into: &out) }
            if consumed < input.count, case .requests = connection.phase {
                input.removeFirst(consumed)
                connection.input = input
            }
        }
    }

    /// Feeds `buffer` to the connection's parser until it needs more, fails, or the connection stops taking
    /// requests; returns how many bytes were consumed.
    private func parseAndRespond(_ buffer: UnsafeRawBufferPointer, on connection: Connection, into out: inout [UInt8]) -> Int {
        var offset = 0
        while case .requests = connection.phase {
            let (consumed, event) = connection.parser.parse(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            offset += consumed
            switch event {
            case .needMore:
                return offset
            case .bodyPending(let expectsContinue):
                if connection.parser.awaitsAdmission, !admitUpload(on: connection, into: &out) { return offset }
                if answerBeforeBody(on: connection, into: &out) { return offset }
                if expectsContinue { out.append("HTTP/1.1 100 Continue\r\n\r\n") }  // RFC 9110 §15.2.1
            case .request(let parsed):
                connection.headTimerArmed = false
                connection.rateCheckAt = .max
                respond(to: parsed, on: connection, into: &out)
                // Answered off the loop: the requests behind it wait in `input` until its answer is written.
                if connection.awaitingAnswer { return offset }
                if out.count >= Self.maxQueuedAnswerBytes, case .requests = connection.phase {
                    connection.hasDeferredInput = true
                    return offset
                }
            case .failure(let error):
                writeProblem(error.status, detail: error.detail, acceptEncoding: error.acceptEncoding, for: connection, into: &out)
                connection.phase = .closing
                return offset
            }
        }
        return offset
    }

    /// The loop's shared output buffer, empty, moved out so it can be passed `inout` without exclusivity checks.
    @inline(__always)
    func takeOutBuffer() -> [UInt8] {
        var out: [UInt8] = []
        swap(&out, &outBuffer)
        return out
    }

    /// Puts the shared output buffer back for the next connection, keeping its capacity.
    @inline(__always)
    func returnOutBuffer(_ out: inout [UInt8]) {
        if out.capacity > 1 << 20 {
            out = []  // do not keep a buffer a large answer grew
        } else {
            out.removeAll(keepingCapacity: true)
        }
        swap(&out, &outBuffer)
    }
}
