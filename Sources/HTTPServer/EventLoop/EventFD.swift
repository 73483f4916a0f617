import CSystem
import Glibc

/// A non-blocking eventfd used to wake an event loop from other threads.
struct EventFD: ~Copyable {
    let fd: Int32

    init() throws(HTTPServerError) {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { throw .systemCall(call: "eventfd", errno: errno) }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Makes the descriptor readable (wakes the loop's `epoll_wait`).
    func signal() {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    /// Resets the counter so the descriptor is no longer readable.
    func drain() {
        var value: UInt64 = 0
        _ = read(fd, &value, 8)
    }
}
