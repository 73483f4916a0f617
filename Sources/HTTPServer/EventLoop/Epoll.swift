import CSystem
import Glibc

/// A thin wrapper over one epoll instance, level-triggered. Each registration carries a 64-bit key that
/// `wait` hands back; the loop uses it to find the connection (fd and generation) or its own descriptors.
struct Epoll: ~Copyable {
    let fd: Int32

    /// Interest sets as epoll bits.
    struct Interest: OptionSet {
        let rawValue: UInt32
        static let read = Interest(rawValue: EPOLLIN.rawValue)
        static let write = Interest(rawValue: EPOLLOUT.rawValue)
    }

    init() throws(HTTPServerError) {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw .systemCall(call: "epoll_create1", errno: errno) }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Registers `descriptor`; false when the kernel refuses (the descriptor is then not watched).
    @discardableResult
    func add(_ descriptor: Int32, key: UInt64, interest: Interest) -> Bool {
        control(EPOLL_CTL_ADD, descriptor, key: key, interest: interest)
    }

    /// Changes the interest set of a registered descriptor.
    @discardableResult
    func modify(_ descriptor: Int32, key: UInt64, interest: Interest) -> Bool {
        control(EPOLL_CTL_MOD, descriptor, key: key, interest: interest)
    }

    /// Stops watching `descriptor` (closing it does the same).
    func remove(_ descriptor: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, descriptor, &event)
    }

    private func control(_ op: Int32, _ descriptor: Int32, key: UInt64, interest: Interest) -> Bool {
        var event = epoll_event()
        event.events = interest.rawValue
        event.data.u64 = key
        return epoll_ctl(fd, op, descriptor, &event) == 0
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) and fills `events`; returns how many are ready,
    /// 0 on timeout or interruption, -1 on a real failure.
    func wait(into events: UnsafeMutableBufferPointer<epoll_event>, timeoutMilliseconds: Int32) -> Int {
        let count = epoll_wait(fd, events.baseAddress, Int32(events.count), timeoutMilliseconds)
        if count < 0 { return errno == EINTR ? 0 : -1 }
        return Int(count)
    }
}
