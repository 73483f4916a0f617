extension EventLoop {
    /// Starts the producer of a stream whose head was just flushed, then sends what it wrote synchronously.
    func startPendingStream(_ connection: Connection) {
        guard let stream = connection.pendingStream, let writer = connection.streamWriter else { return }
        connection.pendingStream = nil
        guard connections[Int(connection.fd)] === connection else {
            writer.end(.closed)
            return
        }
        stream.start(writer)
        if connections[Int(connection.fd)] === connection { flushStream(connection) }
    }

    /// Moves a stream's queued bytes to the socket while it takes them; closes the connection once the stream
    /// finished and everything is sent, or at once when it was closed. What the socket will not take waits on the
    /// connection (and counts in the writer's backlog, which is bounded) until the socket drains.
    func flushStream(_ connection: Connection) {
        guard let writer = connection.streamWriter, connection.pendingStream == nil else { return }
        for _ in 0..<16 {
            let writable = !connection.hasPendingOutput
            let fd = connection.fd
            let taken = writer.take(writable: writable) { self.sendAvailable(fd, $0) }
            if taken.phase == .closed {
                close(connection)
                return
            }
            guard writable else { break }
            if !taken.bytes.isEmpty {
                guard taken.sent >= 0 else {
                    close(connection)
                    return
                }
                if taken.sent < taken.bytes.count {
                    connection.output = taken.bytes
                    connection.outputOffset = taken.sent
                    break
                }
                continue  // the producer may have queued more meanwhile
            }
            if taken.phase == .finishing {
                connection.phase = .closing
                linger(connection)
            }
            break
        }
        guard connections[Int(connection.fd)] === connection else { return }
        if case .streaming = connection.phase {
            if connection.isStreamAtRest {
                connection.deadline = .max
            } else if connection.deadline == .max {
                // Bytes wait for the socket (or an ended stream's last ones): the client has the idle timeout to
                // take some; each send that makes progress re-arms it.
                rearmTimer(connection)
            }
        }
        updateInterest(connection)
    }
}
