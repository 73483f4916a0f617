extension EventLoop {
    /// Starts a graceful shutdown: no new connections; idle ones close now; requests in flight are answered
    /// (with `Connection: close`) and drained; streams end with their last chunk; whatever is left when
    /// `grace` runs out is closed by force as the loop stops.
    func beginShutdown(grace: Duration) {
        isShuttingDown = true
        shutdownDeadline = now + grace.milliseconds
        closeListener()
        releaseAllHeldAnswers()
        for slot in connections.indices {
            guard let connection = connections[slot] else { continue }
            switch connection.phase {
            case .requests:
                if !connection.hasPendingOutput && !connection.isMidRequest && !connection.awaitingAnswer { close(connection) }
            case .streaming(let writer):
                writer.end(.finishing)
                flushStream(connection)
            case .closing, .lingering:
                break
            }
        }
    }
}
