import Glibc

/// Work other threads hand to a loop.
struct Inbox {
    /// A connection accepted by another loop.
    struct Adoption {
        var fd: Int32
        var remoteAddress: String
        /// Whether another loop served the connection until now (see `EventLoop.adopt`).
        var handedOver: Bool
    }

    var adopted: [Adoption] = []
    /// Keys of streaming connections whose writers queued bytes or ended.
    var streamKeys: [UInt64] = []
    /// Answers the worker pool made for this loop's connections.
    var answers: [OffloadedAnswer] = []
    /// Set once a shutdown is requested: its grace period.
    var shutdownGrace: Duration?
    /// Set when the loop has exited: connections handed over later are closed by the sender.
    var isClosed = false
}

extension EventLoop {
    /// Wakes the loop's `epoll_wait`; several wakes before the loop drains cost one eventfd write.
    func wake() {
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) { wakeFD.signal() }
    }

    /// Hands a connection to this loop (from another loop's thread), already counted in its `connectionLoad`: one
    /// just accepted, or an idle one the other loop served until now (`handedOver`).
    func enqueueAdoption(fd: Int32, remoteAddress: String, handedOver: Bool = false) {
        let accepted = inbox.withLock { inbox -> Bool in
            guard !inbox.isClosed else { return false }
            inbox.adopted.append(Inbox.Adoption(fd: fd, remoteAddress: remoteAddress, handedOver: handedOver))
            return true
        }
        guard accepted else {
            dropHandedConnection(fd, handedOver: handedOver)
            return
        }
        wake()
    }

    /// Marks the inbox closed as the loop exits and closes connections handed over too late (loop thread).
    func closeInbox() {
        let late = inbox.withLock { inbox -> [Inbox.Adoption] in
            inbox.isClosed = true
            defer { inbox.adopted = [] }
            return inbox.adopted
        }
        for adoption in late { dropHandedConnection(adoption.fd, handedOver: adoption.handedOver) }
    }

    /// Asks the loop to flush the stream of the connection `key` (from any thread).
    func scheduleStreamFlush(_ key: UInt64) {
        inbox.withLock { $0.streamKeys.append(key) }
        wake()
    }

    /// Asks the loop to shut down gracefully within `grace` (from any thread).
    func requestShutdown(grace: Duration) {
        inbox.withLock { inbox in
            if inbox.shutdownGrace == nil { inbox.shutdownGrace = grace }
        }
        wake()
    }

    /// Runs the queued work (loop thread).
    func drainInbox() {
        // Reset the eventfd before the flag, and the flag before taking the queue: a producer that finds the
        // flag set has queued its work before the swap below, and one that finds it clear signals again.
        wakeFD.drain()
        wakePending.store(false, ordering: .sequentiallyConsistent)
        var adopted = spareAdopted
        var streamKeys = spareStreamKeys
        var answers = spareAnswers
        let shutdownGrace = inbox.withLock { inbox -> Duration? in
            swap(&inbox.adopted, &adopted)
            swap(&inbox.streamKeys, &streamKeys)
            swap(&inbox.answers, &answers)
            return inbox.shutdownGrace
        }
        for adoption in adopted {
            adopt(fd: adoption.fd, remoteAddress: adoption.remoteAddress, handedOver: adoption.handedOver)
        }
        adopted.removeAll(keepingCapacity: true)
        spareAdopted = adopted
        if let shutdownGrace, !isShuttingDown { beginShutdown(grace: shutdownGrace) }
        // Answers now, streams at the end of the pass: a client waits for its answer, and one event for a thousand
        // streams of another tenant is a thousand sends (measured: milliseconds that a write's answer waited behind
        // them). After a shutdown began in the same drain, so that these answers say `Connection: close`.
        for answer in answers { deliver(answer) }
        answers.removeAll(keepingCapacity: true)
        spareAnswers = answers
        scheduledStreams.append(contentsOf: streamKeys)
        streamKeys.removeAll(keepingCapacity: true)
        spareStreamKeys = streamKeys
    }

    /// The most streams one pass flushes; the rest wait for the next pass, which first answers any request that
    /// arrived meanwhile (the wait does not block while streams are left).
    static let streamFlushesPerPass = 64

    /// Sends what scheduled streams queued (loop thread), after the pass's requests were answered, at most
    /// ``streamFlushesPerPass`` of them: a thousand streams of one tenant are a thousand sends, which another
    /// tenant's request would otherwise wait behind.
    func flushScheduledStreams() {
        let count = min(scheduledStreams.count, Self.streamFlushesPerPass)
        guard count > 0 else { return }
        // Flushing touches no scheduled key (a writer's new bytes are scheduled through the inbox).
        for index in 0..<count {
            if let connection = connection(for: scheduledStreams[index]) { flushStream(connection) }
        }
        scheduledStreams.removeFirst(count)  // in place: the rest keep their order and the array its storage
    }
}
