import CSystem
import Glibc

/// The listening socket: non-blocking, close-on-exec, `SO_REUSEADDR` (so a restart can bind over TIME_WAIT)
/// but not `SO_REUSEPORT`, so a port held by another process is an error rather than silently shared.
struct Listener: Sendable {
    let fd: Int32
    /// The port the kernel bound, which differs from the configured one when that was 0.
    let port: Int

    /// Creates, binds and listens; throws `HTTPServerError` naming the address on failure.
    static func open(host: String, port: Int, backlog: Int32) throws(HTTPServerError) -> Listener {
        guard (0...65_535).contains(port) else { throw .invalidPort(port) }
        guard let address = SocketAddress(host: host, port: UInt16(port)) else { throw .invalidHost(host) }
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .systemCall(call: "socket", errno: errno) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        guard bound == 0 else {
            let code = errno
            close(fd)
            if code == EADDRINUSE { throw .addressInUse(host: host, port: port) }
            throw .systemCall(call: "bind", errno: code)
        }
        guard listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw .systemCall(call: "listen", errno: code)
        }
        guard let local = SocketAddress.local(of: fd) else {
            let code = errno
            close(fd)
            throw .systemCall(call: "getsockname", errno: code)
        }
        return Listener(fd: fd, port: Int(local.port))
    }
}
