extension EventLoop {
    /// Once a second: fires the deadlines that passed. One pass over the loop's connections, no per-connection
    /// timer objects or syscalls; deadlines are plain integers updated as connections change state.
    func sweep() {
        nextSweep = now + 1000
        resumeListenerIfDue()
        for slot in connections.indices {
            guard let connection = connections[slot], connection.deadline <= now else { continue }
            timeOut(connection)
        }
    }

    /// What a passed deadline means depends on what the connection was doing.
    private func timeOut(_ connection: Connection) {
        switch connection.phase {
        case .requests where !connection.hasPendingOutput && connection.isMidRequest:
            // RFC 9110 §15.5.9: the client was too slow sending its request.
            var detail = "The request was not received in time."
            if now < connection.requestDeadline, connection.rateCheckAt <= now {
                let received = connection.bytesRead &- connection.rateWindowStart
                if received >= settings.minimumBytesPerWindow {
                    // Fast enough: the next window opens; the idle time counts from here.
                    connection.rateWindowStart = connection.bytesRead
                    connection.rateCheckAt = now + settings.bodyRateWindow
                    connection.deadline = min(now + settings.idleTimeout, connection.requestDeadline, connection.rateCheckAt)
                    return
                }
                detail = "The request body arrived slower than \(settings.minimumBodyRate) bytes per second."
            }
            var out = takeOutBuffer()
            writeProblem(.requestTimeout, detail: detail, for: connection, into: &out)
            connection.phase = .closing
            flush(connection, &out)
            returnOutBuffer(&out)
        case .streaming:
            // A stream runs without a deadline while the client takes what it is sent. One whose client took
            // nothing for the idle timeout while bytes waited (it stopped reading), or that ended and whose last
            // bytes were not taken, is closed.
            if connection.isStreamAtRest {
                connection.deadline = .max
            } else {
                close(connection)
            }
        default:
            // Idle keep-alive, a write the client stopped reading, or a linger that ran out.
            close(connection)
        }
    }

    /// Sets the connection's deadline after it read or wrote, from its phase. A request's deadlines run from
    /// its first byte: the head timeout until the head is read, the request timeout until the body is, and
    /// while the body is read, the idle timeout and the body-rate window too.
    func rearmTimer(_ connection: Connection) {
        switch connection.phase {
        case .requests:
            if connection.awaitingAnswer {
                // The server is answering: the client waits, and owes nothing meanwhile.
                connection.rateCheckAt = .max
                connection.deadline = .max
                return
            }
            if connection.hasPendingOutput {
                // The server is not reading while its answers wait: the body rate is not the client's doing.
                connection.rateCheckAt = .max
                connection.deadline = now + settings.idleTimeout
                return
            }
            guard connection.isMidRequest else {
                connection.headTimerArmed = false
                connection.rateCheckAt = .max
                connection.deadline = now + settings.idleTimeout
                return
            }
            if !connection.headTimerArmed {
                connection.headTimerArmed = true
                connection.requestDeadline = now + settings.requestTimeout
                connection.deadline = min(now + settings.headerTimeout, connection.requestDeadline)
            }
            if connection.parser.isReadingBody {
                if connection.rateCheckAt == .max, settings.minimumBytesPerWindow > 0 {
                    connection.rateCheckAt = now + settings.bodyRateWindow
                    connection.rateWindowStart = connection.bytesRead
                }
                connection.deadline = min(now + settings.idleTimeout, connection.requestDeadline, connection.rateCheckAt)
            }
        case .streaming:
            // The idle timeout runs while bytes wait for the socket (re-armed by each send that makes progress).
            connection.deadline = connection.isStreamAtRest ? .max : now + settings.idleTimeout
        case .closing:
            connection.deadline = now + settings.idleTimeout
        case .lingering:
            break
        }
    }
}
