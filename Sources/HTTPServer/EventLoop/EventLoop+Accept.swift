import CSystem
import Glibc

extension EventLoop {
    /// Makes this loop the acceptor for `listener`; it hands connections to the loops it joined
    /// (``sibling(forAccepted:)``).
    func attachListener(_ listener: Int32) {
        listenerFD = listener
        epoll.add(listener, key: Self.listenerKey, interest: .read)
    }

    /// Accepts what the backlog holds (bounded per wake-up so requests on this loop are not starved).
    func acceptConnections() {
        for _ in 0..<128 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept4(listenerFD, $0, &length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
                }
            }
            if fd < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK:
                    return
                case EINTR, ECONNABORTED, EPROTO:
                    continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: stop watching the listener for a second rather than spin on it.
                    logger.error("accept failed: out of resources; pausing accepts", metadata: ["errno": "\(errno)"])
                    epoll.remove(listenerFD)
                    listenerPausedUntil = now + 1000
                    return
                default:
                    logger.error("accept failed", metadata: ["errno": "\(errno)"])
                    return
                }
            }
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let remoteAddress = SocketAddress.accepted(storage).ipText
            let target = sibling(forAccepted: fd)
            target.connectionLoad.add(1, ordering: .relaxed)
            if target === self {
                adopt(fd: fd, remoteAddress: remoteAddress)
            } else {
                target.enqueueAdoption(fd: fd, remoteAddress: remoteAddress)
            }
        }
    }

    /// Watches the listener again after a pause for lack of descriptors.
    func resumeListenerIfDue() {
        guard let until = listenerPausedUntil, now >= until, listenerFD >= 0, !isShuttingDown else { return }
        listenerPausedUntil = nil
        epoll.add(listenerFD, key: Self.listenerKey, interest: .read)
    }

    /// Stops accepting: the listening socket is closed.
    func closeListener() {
        guard listenerFD >= 0 else { return }
        epoll.remove(listenerFD)
        Glibc.close(listenerFD)
        listenerFD = -1
    }
}
