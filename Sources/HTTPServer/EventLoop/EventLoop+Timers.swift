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
            var out = takeOutBuffer()
            writeProblem(.requestTimeout, detail: "The request was not received in time.", for: connection, into: &out)
            connection.phase = .closing
            flush(connection, &out)
            returnOutBuffer(&out)
        case .streaming:
            connection.deadline = .max
        default:
            // Idle keep-alive, a write the client stopped reading, or a linger that ran out.
            close(connection)
        }
    }

    /// Sets the connection's deadline after it read or wrote, from its phase.
    func rearmTimer(_ connection: Connection) {
        switch connection.phase {
        case .requests:
            if connection.hasPendingOutput || connection.parser.isReadingBody {
                connection.deadline = now + settings.idleTimeout
            } else if connection.isMidRequest {
                // The head timeout runs from the head's first byte and is not extended by later ones.
                if !connection.headTimerArmed {
                    connection.headTimerArmed = true
                    connection.deadline = now + settings.headerTimeout
                }
            } else {
                connection.headTimerArmed = false
                connection.deadline = now + settings.idleTimeout
            }
        case .streaming:
            connection.deadline = .max
        case .closing:
            connection.deadline = now + settings.idleTimeout
        case .lingering:
            break
        }
    }
}
