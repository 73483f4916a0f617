import CSystem
import Glibc
import Locking
import Logging
import Synchronization

/// One event-loop thread: an epoll instance, the connections handed to it, and their timers.
///
/// Everything but `inbox`, `wakePending` and `wakeFD` is confined to the loop's thread; other threads reach the
/// loop only by queueing into `inbox` and signalling the eventfd.
final class EventLoop: @unchecked Sendable {  // @unchecked: mutable state is confined to the loop thread; cross-thread entry is `inbox` (Mutex) + eventfd
    static let wakeKey = UInt64.max
    static let listenerKey = UInt64.max - 1
    static let readBufferSize = 64 * 1024
    static let maxEventsPerWait = 256

    let index: Int
    let settings: LoopSettings
    let responder: any HTTPResponder
    let logger: Logger
    let epoll: Epoll
    let wakeFD: EventFD
    /// Work queued by other threads.
    let inbox = PlainLock(Inbox())
    /// Whether the eventfd has been signalled and the loop has not drained the inbox since.
    let wakePending = Atomic<Bool>(false)

    // Loop-thread state.
    /// Connections by descriptor.
    var connections: [Connection?] = []
    /// Connections this loop serves now or was handed and has not taken up yet; counted by whoever hands one
    /// over (the accepting loop, a loop a client moved away from), read by the loops when they place one.
    let connectionLoad = Atomic<Int>(0)
    var connectionCount: Int { connectionLoad.load(ordering: .relaxed) }
    var generation: UInt32 = 0
    /// The loop's shared read buffer, allocated once.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// The loop's shared buffer for answers, reused across connections.
    var outBuffer: [UInt8] = []
    /// Loop time in monotonic milliseconds, refreshed after each wait.
    var now: Int64 = 0
    var dateCache = DateCache()
    var requestIds: RequestIdGenerator
    var nextSweep: Int64 = 0
    /// The listening socket, on the loop that accepts.
    var listenerFD: Int32 = -1
    var listenerPausedUntil: Int64?
    /// Every loop of the server, this one included, by index (set before the loops start; see ``join(_:binding:)``).
    var siblings: [EventLoop] = []
    /// The next loop an accepted connection is dealt to when they take turns.
    var nextSibling = 0
    /// The processors the loops are bound to, if they are (``LoopPlacement/perProcessor``).
    var binding = LoopBinding.unbound
    /// The processor this loop is bound to; -1 when unbound.
    var boundProcessor = -1
    var isShuttingDown = false
    var shutdownDeadline = Int64.max
    /// Spare arrays swapped with the inbox's so draining it does not allocate.
    var spareAdopted: [Inbox.Adoption] = []
    var spareStreamKeys: [UInt64] = []
    var spareAnswers: [OffloadedAnswer] = []
    /// Answers held until their delay has passed (``HTTPResponse/delay``).
    var heldAnswers = HeldAnswers()
    /// Orders each wait's ready events so that clients take turns.
    var turns = ClientTurns(capacity: EventLoop.maxEventsPerWait)
    /// Streams whose writers queued bytes, flushed after the pass's requests (see ``flushScheduledStreams()``).
    var scheduledStreams: [UInt64] = []
    /// The threads that answer the requests the server hands off its loops; nil when none are.
    let workers: WorkerPool?

    init(
        index: Int, settings: LoopSettings, responder: any HTTPResponder, logger: Logger, workers: WorkerPool? = nil
    ) throws(HTTPServerError) {
        self.index = index
        self.workers = workers
        self.settings = settings
        self.responder = responder
        self.logger = logger
        self.epoll = try Epoll()
        self.wakeFD = try EventFD()
        self.requestIds = RequestIdGenerator(loopIndex: index)
        self.readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        outBuffer.reserveCapacity(Self.readBufferSize)
        epoll.add(wakeFD.fd, key: Self.wakeKey, interest: .read)
    }

    deinit {
        readBuffer.deallocate()
        turns.deallocate()
    }

    /// Runs until shutdown completes; `onExit` runs on the loop thread as it stops.
    func run(onExit: () -> Void) {
        let events = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: Self.maxEventsPerWait)
        defer { events.deallocate() }
        refreshClock()
        nextSweep = now + 1000
        while true {
            let ready = epoll.wait(into: events, timeoutMilliseconds: waitTimeout())
            if ready < 0 {
                logger.critical("epoll_wait failed; event loop \(index) stops", metadata: ["errno": "\(errno)"])
                break
            }
            refreshClock()
            turns.order(events, count: ready) { key in
                if key == Self.wakeKey { return nil }
                return connection(for: key)?.client ?? Int(truncatingIfNeeded: key)
            }
            for i in 0..<ready { handle(events[i]) }
            flushScheduledStreams()
            releaseHeldAnswers()
            if now >= nextSweep { sweep() }
            if isShuttingDown, connectionCount == 0 || now >= shutdownDeadline { break }
        }
        closeEverything()
        onExit()
    }

    private func refreshClock() {
        now = LoopClock.monotonicMilliseconds()
        dateCache.update(now: LoopClock.wallSeconds())
    }

    /// Milliseconds until the next sweep, or until the shutdown deadline or a held answer when that is sooner.
    private func waitTimeout() -> Int32 {
        if !scheduledStreams.isEmpty { return 0 }  // streams left for the next pass: only look for requests first
        let until = min(nextSweep, shutdownDeadline, heldAnswers.nextDue ?? .max) - now
        return Int32(clamping: max(0, until))
    }

    private func handle(_ event: epoll_event) {
        let key = event.data.u64
        let flags = event.events
        if key == Self.wakeKey {
            drainInbox()
            return
        }
        if key == Self.listenerKey {
            acceptConnections()
            return
        }
        guard let connection = connection(for: key) else { return }
        if flags & EPOLLOUT.rawValue != 0 {
            handleWritable(connection)
            guard connections[Int(connection.fd)] === connection else { return }
        }
        if flags & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
            if connection.interest.contains(.read) {
                handleReadable(connection)
            } else if flags & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
                close(connection)
            }
        }
    }

    /// The live connection an epoll key names, if it is still the same one.
    @inline(__always)
    func connection(for key: UInt64) -> Connection? {
        let fd = Int(truncatingIfNeeded: key & 0xFFFF_FFFF)
        guard fd < connections.count, let connection = connections[fd], connection.key == key else { return nil }
        return connection
    }

    /// Registers a connection handed to this loop (and counted in its ``connectionLoad`` by whoever handed it);
    /// `handedOver`: an idle keep-alive connection another loop served until now (``followClient(_:)``), already
    /// counted open, whose idle timeout runs.
    func adopt(fd: Int32, remoteAddress: String, handedOver: Bool = false) {
        if isShuttingDown {
            dropHandedConnection(fd, handedOver: handedOver)
            return
        }
        generation &+= 1
        let key = UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd))
        let connection = Connection(
            fd: fd, key: key, remoteAddress: remoteAddress, limits: settings.limits,
            deadline: now + min(settings.headerTimeout, settings.requestTimeout), requestDeadline: now + settings.requestTimeout)
        if handedOver {
            connection.headTimerArmed = false
            connection.deadline = now + settings.idleTimeout
        }
        let slot = Int(fd)
        if slot >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: max(slot + 1 - connections.count, connections.count)))
        }
        guard epoll.add(fd, key: key, interest: .read) else {
            logger.warning("epoll_ctl failed for an accepted connection", metadata: ["errno": "\(errno)"])
            dropHandedConnection(fd, handedOver: handedOver)
            return
        }
        connections[slot] = connection
        if !handedOver { settings.tally.opened() }
    }

    /// Closes a connection handed to this loop that it will not serve, and uncounts it.
    func dropHandedConnection(_ fd: Int32, handedOver: Bool) {
        Glibc.close(fd)
        connectionLoad.subtract(1, ordering: .relaxed)
        if handedOver { settings.tally.closed() }
    }

    /// Closes the connection at once; a stream it carried ends and runs its close handlers.
    func close(_ connection: Connection) {
        if let writer = connection.streamWriter { writer.end(.closed) }
        Glibc.close(connection.fd)
        connections[Int(connection.fd)] = nil
        connectionLoad.subtract(1, ordering: .relaxed)
        settings.tally.closed()
    }

    /// Updates the epoll registration to what the connection's phase calls for.
    func updateInterest(_ connection: Connection) {
        let desired = connection.desiredInterest
        guard desired != connection.interest else { return }
        connection.interest = desired
        epoll.modify(connection.fd, key: connection.key, interest: desired)
    }

    /// Closes every connection and the listener as the loop stops.
    private func closeEverything() {
        for slot in connections.indices {
            if let connection = connections[slot] { close(connection) }
        }
        closeListener()
        closeInbox()
        siblings = []
    }
}
