#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few socket calls that differ between Linux and Darwin, so that the client builds on both.
enum PlatformSocket {
    /// `SOCK_STREAM` as `addrinfo.ai_socktype` takes it.
    static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// Closes `fd`.
    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// Sends bytes without raising `SIGPIPE` when the peer has gone (Linux: `MSG_NOSIGNAL`; Darwin: the socket's
    /// `SO_NOSIGPIPE`, set by ``prepare(_:)``).
    static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
        #else
        Darwin.send(fd, buffer.baseAddress, buffer.count, 0)
        #endif
    }

    /// Per-socket options a new connection needs.
    static func prepare(_ fd: Int32) {
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }
}
