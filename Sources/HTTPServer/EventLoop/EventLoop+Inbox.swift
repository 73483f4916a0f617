import Glibc

/// Work other threads hand to a loop.
struct Inbox {
    /// A connection accepted by another loop.
    struct Adoption {
        var fd: Int32
        var remoteAddress: String
    }

    var adopted: [Adoption] = []
    /// Keys of streaming connections whose writers queued bytes or ended.
    var streamKeys: [UInt64] = []
    /// Set once a shutdown is requested: its grace period.
    var shutdownGrace: Duration?
}

extension EventLoop {
    /// Wakes the loop's `epoll_wait`; several wakes before the loop drains cost one eventfd write.
    func wake() {
        if !wakePending.exchange(true, ordering: .acquiringAndReleasing) { wakeFD.signal() }
    }

    /// Hands an accepted connection to this loop (from the accepting loop's thread).
    func enqueueAdoption(fd: Int32, remoteAddress: String) {
        inbox.withLock { $0.adopted.append(Inbox.Adoption(fd: fd, remoteAddress: remoteAddress)) }
        wake()
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
        let shutdownGrace = inbox.withLock { inbox -> Duration? in
            swap(&inbox.adopted, &adopted)
            swap(&inbox.streamKeys, &streamKeys)
            return inbox.shutdownGrace
        }
        for adoption in adopted { adopt(fd: adoption.fd, remoteAddress: adoption.remoteAddress) }
        for key in streamKeys {
            if let connection = connection(for: key) { flushStream(connection) }
        }
        adopted.removeAll(keepingCapacity: true)
        streamKeys.removeAll(keepingCapacity: true)
        spareAdopted = adopted
        spareStreamKeys = streamKeys
        if let shutdownGrace, !isShuttingDown { beginShutdown(grace: shutdownGrace) }
    }
}
