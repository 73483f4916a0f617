import Foundation
import HTTPServer
import Synchronization

/// An `HTTPStreamWriter` that plays a client reading at its own pace behind a bounded backlog, as the server's
/// writer does: written bytes wait in the backlog until the test "reads" them (`read(upTo:)`); a write that would
/// take a non-empty backlog past `limit` closes the stream, as the server closes a client that fell behind. It
/// records the largest backlog it ever held.
final class SlowClientStreamWriter: HTTPStreamWriter {
    private struct Waiter {
        var threshold: Int
        var handler: @Sendable () -> Void
    }

    private struct State {
        var received: [UInt8] = []
        var backlog: [UInt8] = []
        var open = true
        var fellBehind = false
        var largestBacklog = 0
        var handlers: [@Sendable () -> Void] = []
        var waiters: [Waiter] = []
    }

    private let state = Mutex(State())
    let backlogLimit: Int

    init(backlogLimit: Int) {
        self.backlogLimit = backlogLimit
    }

    var isOpen: Bool { state.withLock { $0.open } }
    var backlog: Int { state.withLock { $0.backlog.count } }
    /// The largest backlog held at any time.
    var largestBacklog: Int { state.withLock { $0.largestBacklog } }
    /// Whether the stream was closed because a write did not fit.
    var fellBehind: Bool { state.withLock { $0.fellBehind } }
    /// What the client has read, parsed.
    var parsed: SSEStream { SSEStream(state.withLock { String(decoding: $0.received, as: UTF8.self) }) }
    var eventIds: [Int64] { parsed.events.compactMap { $0.id.flatMap { Int64($0) } } }
    /// Whether the client has read the whole event with id `id` (a cheap look at the end of what it read).
    func hasRead(eventId id: Int64) -> Bool {
        let tail = state.withLock { String(decoding: $0.received.suffix(2048), as: UTF8.self) }
        guard let start = tail.range(of: "id: \(id)\n") else { return false }
        return tail[start.upperBound...].contains("\n\n")
    }

    func write(_ bytes: [UInt8]) -> Bool {
        var handlers: [@Sendable () -> Void] = []
        let accepted = state.withLock { state -> Bool in
            guard state.open else { return false }
            if !state.backlog.isEmpty, state.backlog.count + bytes.count > backlogLimit {
                state.open = false
                state.fellBehind = true
                state.backlog = []
                state.waiters = []
                handlers = state.handlers
                state.handlers = []
                return false
            }
            state.backlog += bytes
            state.largestBacklog = max(state.largestBacklog, state.backlog.count)
            return true
        }
        for handler in handlers { handler() }
        return accepted
    }

    func finish() { disconnect() }

    /// The client goes away.
    func disconnect() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard state.open else { return [] }
            state.open = false
            state.waiters = []
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard state.open else { return true }
            state.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    func whenBacklog(atMost threshold: Int, _ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard state.open else { return false }
            if state.backlog.count <= threshold { return true }
            state.waiters.append(Waiter(threshold: threshold, handler: handler))
            return false
        }
        if runNow { handler() }
    }

    /// The client reads up to `count` bytes of the backlog; answers how many it read.
    @discardableResult
    func read(upTo count: Int) -> Int {
        var ready: [Waiter] = []
        let read = state.withLock { state -> Int in
            let read = min(count, state.backlog.count)
            guard read > 0 else { return 0 }
            state.received += state.backlog[..<read]
            state.backlog.removeFirst(read)
            let backlog = state.backlog.count
            state.waiters.removeAll { waiter in
                guard waiter.threshold >= backlog else { return false }
                ready.append(waiter)
                return true
            }
            return read
        }
        for waiter in ready { waiter.handler() }
        return read
    }

    /// Reads `chunk` bytes at a time, pausing `pause` between reads, until `done` holds or `timeout` passes;
    /// answers whether `done` came.
    @discardableResult
    func readSlowly(chunk: Int, pause: Duration = .microseconds(200), timeout: Duration = .seconds(60),
                    until done: (SlowClientStreamWriter) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        let seconds = Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18
        while ContinuousClock.now < deadline {
            read(upTo: chunk)
            if done(self) { return true }
            Thread.sleep(forTimeInterval: seconds)
        }
        return done(self)
    }
}
