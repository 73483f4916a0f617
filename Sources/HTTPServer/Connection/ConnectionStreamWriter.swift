import Synchronization

/// The server's `HTTPStreamWriter`: producers on any thread queue framed bytes under a lock and wake the
/// connection's loop, which takes the queue whenever the socket can accept more.
///
/// **The backlog** is every byte written and not yet sent: the queue, plus what the loop took and the socket has
/// not accepted yet (`inFlight`, counted as the loop sends, under the lock). It is bounded by `limit`: a write that would
/// take it past the limit means the client fell behind, and the stream ends (see `write(_:)`). Producers with much
/// to send pace themselves with `whenBacklog(atMost:_:)`, so they never reach the limit. Every stream's backlog also
/// counts in the server's `StreamBacklogTotal`: a write that takes the total past its limit has the streams furthest
/// behind ended the same way (``cutForServerLimit()``; their clients resume with `Last-Event-ID`).
final class ConnectionStreamWriter: HTTPStreamWriter {
    /// Where the stream is in its life.
    enum Phase: Equatable {
        case open
        /// `finish` was called, or the client fell behind while the socket still took bytes: the queue ends with
        /// the last chunk; the connection closes once it is sent.
        case finishing
        /// Ended without a proper end: client gone, fallen behind with the socket full, or forced shutdown.
        case closed
    }

    /// A producer waiting for the backlog to fall to `threshold`.
    private struct Waiter {
        var threshold: Int
        var handler: @Sendable () -> Void
    }

    private struct State {
        var phase = Phase.open
        var queue: [UInt8] = []
        /// Bytes the loop took and the socket has not accepted yet.
        var inFlight = 0
        var handlers: [@Sendable () -> Void] = []
        var waiters: [Waiter] = []
        /// Whether the loop has been asked to flush and has not taken the queue since.
        var flushScheduled = false
        /// The backlog as last counted in the server's total.
        var counted = 0

        var backlog: Int { queue.count + inFlight }
    }

    /// The comment a stream that fell behind ends with, when the socket still takes bytes (WHATWG HTML §9.2.6:
    /// a line starting with a colon is ignored by clients; it is there for people reading the stream).
    static func fellBehindNotice(limit: Int) -> [UInt8] {
        Array(": stream closed: more than \(limit) bytes were waiting for this client; reconnect with Last-Event-ID\n\n".utf8)
    }

    private let state = Mutex(State())
    private let loop: EventLoop
    private let key: UInt64
    private let chunked: Bool
    private let limit: Int
    /// Every stream's backlog together, and its limit; nil: this stream counts in no total.
    private let total: StreamBacklogTotal?

    /// The comment a stream ends with when the server's streams together hold more than `limit` bytes (see
    /// ``fellBehindNotice(limit:)``).
    static func serverFullNotice(limit: Int) -> [UInt8] {
        Array(": stream closed: the server's streams hold more than \(limit) bytes for their clients and this one was behind; reconnect with Last-Event-ID\n\n".utf8)
    }

    init(loop: EventLoop, key: UInt64, chunked: Bool, limit: Int, total: StreamBacklogTotal? = nil) {
        self.loop = loop
        self.key = key
        self.chunked = chunked
        self.limit = limit
        self.total = total
        total?.register(self)
    }

    /// Counts the change of the backlog since it was last counted in the server's total (under the lock).
    private func settle(_ state: inout State) {
        guard let total else { return }
        let backlog = state.backlog
        total.add(backlog - state.counted)
        state.counted = backlog
    }

    var isOpen: Bool { state.withLock { $0.phase == .open } }

    var backlog: Int { state.withLock { $0.backlog } }

    var backlogLimit: Int { limit }

    /// Queues `bytes`. When the backlog would pass the limit, the client has fallen behind and the stream ends:
    /// if the socket is still taking bytes (nothing in flight) the queue is kept and ends with a comment saying
    /// why and the last chunk, then the connection closes; otherwise (the socket is full: the client is not
    /// reading) the queue is dropped and the connection closed at once. Either way a client resumes with
    /// `Last-Event-ID`: a partly sent event is never dispatched (§9.2.6).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        if bytes.isEmpty { return isOpen }  // an empty chunk would end the body (RFC 9112 §7.1)
        var wake = false
        var handlers: [@Sendable () -> Void] = []
        var relieve = false
        var wasEmpty = false
        let accepted = state.withLock { state -> Bool in
            guard state.phase == .open else { return false }
            let framed = chunked ? bytes.count + 20 : bytes.count
            if state.backlog > 0, state.backlog + framed > limit {
                handlers = cut(&state, notice: Self.fellBehindNotice(limit: limit))
                wake = true  // even when a flush is pending: the loop must act on the end now
                return false
            }
            relieve = total?.wouldExceed(adding: framed) == true
            wasEmpty = state.backlog == 0
            append(bytes, to: &state.queue)
            settle(&state)
            if !state.flushScheduled {
                state.flushScheduled = true
                wake = true
            }
            return true
        }
        if wake { loop.scheduleStreamFlush(key) }
        for handler in handlers { handler() }
        // The server's streams hold too much together: the ones furthest behind go (this one too, if it is and
        // had bytes waiting already: one write into an empty backlog always goes, as within the stream's own bound).
        if relieve { total?.relieve(sparing: wasEmpty ? self : nil) }
        return accepted && isOpen
    }

    /// Ends the stream as one that fell behind (under the lock): when the socket still takes bytes (nothing in
    /// flight) the queue ends with `notice` and the last chunk, and the connection closes once they are sent;
    /// otherwise the queue is dropped and the connection closed at once. Answers the close handlers to run.
    private func cut(_ state: inout State, notice: [UInt8]) -> [@Sendable () -> Void] {
        if state.inFlight == 0 {
            state.phase = .finishing
            append(notice, to: &state.queue)
            if chunked { state.queue.append("0\r\n\r\n") }
        } else {
            state.phase = .closed
            state.queue = []
        }
        settle(&state)
        state.waiters = []
        defer { state.handlers = [] }
        return state.handlers
    }

    /// Ends the stream because the server's streams together hold more than their limit and this one is among the
    /// furthest behind (``StreamBacklogTotal/relieve()``); false when it had ended already or has nothing waiting.
    func cutForServerLimit() -> Bool {
        let limit = total?.limit ?? limit
        let handlers = state.withLock { state -> [@Sendable () -> Void]? in
            guard state.phase == .open, state.backlog > 0 else { return nil }
            return cut(&state, notice: Self.serverFullNotice(limit: limit))
        }
        guard let handlers else { return false }
        loop.scheduleStreamFlush(key)
        for handler in handlers { handler() }
        return true
    }

    /// `bytes` as one chunk (HTTP/1.1) or as they are (close-delimited HTTP/1.0).
    private func append(_ bytes: [UInt8], to queue: inout [UInt8]) {
        if chunked {
            queue.appendHex(bytes.count)
            queue.append("\r\n")
            queue.append(contentsOf: bytes)
            queue.append("\r\n")
        } else {
            queue.append(contentsOf: bytes)
        }
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

    func whenBacklog(atMost threshold: Int, _ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard state.phase == .open else { return false }
            if state.backlog <= threshold { return true }
            state.waiters.append(Waiter(threshold: threshold, handler: handler))
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
                if phase == .closed {
                    // The connection is going away: nothing it held is waiting any more.
                    state.phase = .closed
                    state.queue = []
                    state.inFlight = 0
                    settle(&state)
                    total?.forget(self)
                }
                return []
            }
            state.phase = phase
            state.waiters = []
            if phase == .finishing {
                if chunked { state.queue.append("0\r\n\r\n") }
                state.flushScheduled = true
                wake = true  // even when a flush is pending: the loop gives an ended stream a deadline
            } else {
                state.queue = []
                state.inFlight = 0
                total?.forget(self)
            }
            settle(&state)
            let handlers = state.handlers
            state.handlers = []
            return handlers
        }
        if wake { loop.scheduleStreamFlush(key) }
        for handler in handlers { handler() }
        // The connection is going away and its queues with it: give their memory back to the system soon.
        if phase == .closed { HeapTrimmer.shared.trimSoon() }
    }

    /// The loop's flush: when `writable`, takes the queue and hands it to `send` (a non-blocking send answering how
    /// many bytes the socket accepted, or -1 when the connection broke), all under the lock, so that a producer
    /// never counts as backlog bytes the client may already have read. Answers the bytes taken, how many were
    /// sent, and the phase; runs the producers waiting for the backlog to fall this low.
    func take(writable: Bool, send: (UnsafeRawBufferPointer) -> Int) -> (bytes: [UInt8], sent: Int, phase: Phase) {
        var ready: [Waiter] = []
        let taken = state.withLock { state -> (bytes: [UInt8], sent: Int, phase: Phase) in
            guard writable else { return ([], 0, state.phase) }
            state.flushScheduled = false
            let bytes = state.queue
            state.queue = []
            guard !bytes.isEmpty else { return (bytes, 0, state.phase) }
            let sent = bytes.withUnsafeBytes(send)
            state.inFlight = sent < 0 ? 0 : bytes.count - sent
            settle(&state)
            ready = Self.readyWaiters(&state)
            return (bytes, sent, state.phase)
        }
        for waiter in ready { waiter.handler() }
        return taken
    }

    /// The loop sends more of what it took with `send` (answering how many bytes are still unsent afterwards, or
    /// -1 when the connection broke), under the lock as in `take`; answers what `send` answered.
    func sendInFlight(_ send: () -> Int) -> Int {
        var ready: [Waiter] = []
        let unsent = state.withLock { state -> Int in
            let unsent = send()
            state.inFlight = max(0, unsent)
            settle(&state)
            ready = Self.readyWaiters(&state)
            return unsent
        }
        for waiter in ready { waiter.handler() }
        return unsent
    }

    /// Removes and answers the waiters whose threshold the backlog has reached.
    private static func readyWaiters(_ state: inout State) -> [Waiter] {
        guard !state.waiters.isEmpty else { return [] }
        let backlog = state.backlog
        var ready: [Waiter] = []
        state.waiters.removeAll { waiter in
            guard waiter.threshold >= backlog else { return false }
            ready.append(waiter)
            return true
        }
        return ready
    }
}
