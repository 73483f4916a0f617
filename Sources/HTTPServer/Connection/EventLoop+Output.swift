import Glibc

extension EventLoop {
    /// Sends `out` (emptied afterwards) in as few `send` calls as the socket allows; what it will not take
    /// yet is kept on the connection, which then waits for writability.
    func flush(_ connection: Connection, _ out: inout [UInt8]) {
        if !out.isEmpty {
            if connection.hasPendingOutput {
                connection.output.append(contentsOf: out)
            } else {
                let sent = out.withUnsafeBytes { sendAvailable(connection.fd, $0) }
                guard sent >= 0 else {
                    out.removeAll(keepingCapacity: true)
                    close(connection)
                    return
                }
                if sent < out.count {
                    connection.output = Array(out[sent...])
                    connection.outputOffset = 0
                }
            }
            out.removeAll(keepingCapacity: true)
        }
        if !connection.hasPendingOutput { outputDrained(connection) }
        if connections[Int(connection.fd)] === connection { updateInterest(connection) }
    }

    /// The socket became writable: send what is pending.
    func handleWritable(_ connection: Connection) {
        if connection.hasPendingOutput {
            var sent = 0
            // A stream's writer counts what is still unsent (its backlog) as the socket takes it.
            if let writer = connection.streamWriter {
                _ = writer.sendInFlight {
                    sent = sendPending(connection)
                    return sent < 0 ? -1 : connection.output.count - connection.outputOffset - sent
                }
            } else {
                sent = sendPending(connection)
            }
            guard sent >= 0 else {
                close(connection)
                return
            }
            connection.outputOffset += sent
            if sent > 0 { rearmTimer(connection) }
            guard !connection.hasPendingOutput else { return }
            connection.output = []
            connection.outputOffset = 0
        }
        if connection.hasDeferredInput, case .requests = connection.phase {
            process(UnsafeRawBufferPointer(start: nil, count: 0), on: connection)
            return
        }
        outputDrained(connection)
        if connections[Int(connection.fd)] === connection { updateInterest(connection) }
    }

    /// Sends as much of the connection's pending output as the socket takes; -1 when the connection is broken.
    private func sendPending(_ connection: Connection) -> Int {
        connection.output.withUnsafeBytes {
            sendAvailable(connection.fd, UnsafeRawBufferPointer(rebasing: $0[connection.outputOffset...]))
        }
    }

    /// Everything queued is on the wire: close, linger, take more of a stream, or wait for the next request.
    private func outputDrained(_ connection: Connection) {
        switch connection.phase {
        case .requests:
            if isShuttingDown, !connection.isMidRequest, !connection.awaitingAnswer { close(connection) }
        case .streaming:
            if connection.pendingStream == nil { flushStream(connection) }
        case .closing:
            linger(connection)
        case .lingering:
            break
        }
    }

    /// Shuts the write side and keeps reading (and dropping) until the client closes or the linger time passes,
    /// so unread request bytes do not make the kernel reset the connection under the answer.
    func linger(_ connection: Connection) {
        shutdown(connection.fd, Int32(SHUT_WR))
        connection.phase = .lingering
        connection.deadline = now + settings.lingerTimeout
    }

    /// Sends as much of `bytes` as the socket takes; -1 when the connection is broken.
    func sendAvailable(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        var sent = 0
        while sent < bytes.count {
            let result = Glibc.send(fd, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            if result > 0 {
                sent += result
            } else if result < 0, errno == EINTR {
                continue
            } else if result < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                break
            } else {
                return -1
            }
        }
        return sent
    }
}
