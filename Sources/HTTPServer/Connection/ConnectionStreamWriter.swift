import Synchronization

/// The server's `HTTPStreamWriter`: producers on any thread queue framed bytes under a lock and wake the
/// connection's loop, which takes the queue whenever the socket can accept more.
final class ConnectionStreamWriter: HTTPStreamWriter {
    /// Where the stream is in its life.
    enum Phase: Equatable {
        case open
        /// `finish` was called: the queue ends with the last chunk; the connection closes once it is sent.
        case finishing
        /// Ended without a proper end: client gone, buffer overflow or forced shutdown.
        case closed
    }

    private struct State {
        var phase = Phase.open
        var queue: [UInt8] = []
        var handlers: [@Sendable () -> Void] = []
        /// Whether the loop has been asked to flush and has not taken the queue since.
        var flushScheduled = false
        var overflowed = false
    }

    private let state = Mutex(State())
    private let loop: EventLoop
    private let key: UInt64
    private let chunked: Bool
    private let limit: Int

    init(loop: EventLoop, key: UInt64, chunked: Bool, limit: Int) {
        self.loop = loop
        self.key = key
        self.chunked = chunked
        self.limit = limit
    }

    var isOpen: Bool { state.withLock { $0.phase == .open } }

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        if bytes.isEmpty { return isOpen }  // an empty chunk would end the body (RFC 9112 §7.1)
        var wake = false
        var handlers: [@Sendable () -> Void] = []
        let accepted = state.withLock { state -> Bool in
            guard state.phase == .open else { return false }
            let framed = chunked ? bytes.count + 20 : bytes.count
            if state.queue.count + framed > limit {
                state.overflowed = true
                state.phase = .closed
                state.queue = []
                handlers = state.handlers
                state.handlers = []
                wake = true  // even when a flush is pending: the loop must drop the connection now
                return false
            }
            if chunked {
                state.queue.appendHex(bytes.count)
                state.queue.append("\r\n")
                state.queue.append(contentsOf: bytes)
                state.queue.append("\r\n")
            } else {
                state.queue.append(contentsOf: bytes)
            }
            if !state.flushScheduled {
                state.flushScheduled = true
                wake = true
            }
            return true
        }
        if wake { loop.scheduleStreamFlush(key) }
        for handler in handlers { handler() }
        return accepted
    }

    func finish() {
        end(.finishing)
    }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard state.phase == .open else { return true }
            state.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// Ends the stream from the server's side: `.finishing` sends the last chunk (graceful shutdown),
    /// `.closed` drops whatever is queued (client gone, forced close). Runs the close handlers once.
    func end(_ phase: Phase) {
        var wake = false
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard state.phase == .open else {
                if phase == .closed { state.phase = .closed }
                return []
            }
            state.phase = phase
            if phase == .finishing {
                if chunked { state.queue.append("0\r\n\r\n") }
                if !state.flushScheduled {
                    state.flushScheduled = true
                    wake = true
                }
            } else {
                state.queue = []
            }
            let handlers = state.handlers
            state.handlers = []
            return handlers
        }
        if wake { loop.scheduleStreamFlush(key) }
        for handler in handlers { handler() }
    }

    /// What the loop takes on a flush: the queued bytes (only when `writable`, which also re-arms wake-ups),
    /// the phase, and whether the buffer overflowed.
    func take(writable: Bool) -> (bytes: [UInt8], phase: Phase, overflowed: Bool) {
        state.withLock { state in
            guard writable else { return ([], state.phase, state.overflowed) }
            state.flushScheduled = false
            let bytes = state.queue
            state.queue = []
            return (bytes, state.phase, state.overflowed)
        }
    }
}
