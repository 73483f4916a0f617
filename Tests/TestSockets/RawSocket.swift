import Glibc

/// A raw loopback TCP connection, for the tests that speak HTTP byte by byte: a body sent slowly, an upload held
/// half sent, an event stream read by hand or not at all. The one socket client of the test targets: connect,
/// send everything, receive with a timeout. ``HTTPTestConnection`` reads HTTP answers on top of it.
public final class RawSocket {
    public let fd: Int32
    private var closed = false

    /// What one receive got.
    public enum Received: Equatable, Sendable {
        case bytes([UInt8])
        /// The server closed the connection (or reset it).
        case closed
        /// Nothing arrived within the receive timeout.
        case timedOut
        /// Another error of `recv`, with its `errno`.
        case failed(Int32)
    }

    /// A system call that failed, with its `errno`.
    public struct Failure: Error, Equatable, Sendable {
        public var call: String
        public var code: Int32
    }

    /// Connects to 127.0.0.1:`port` (or [::1] when `ipv6`). A receive gives up after `receiveTimeout`;
    /// `receiveBufferSize` shrinks the kernel's receive buffer, set before connecting so that the window is small
    /// from the first byte. The segment size the connection asks of the server shrinks with it, to a quarter of
    /// the buffer: loopback's own (some 64 KiB, from its MTU) is far larger than such a window, and a receiver
    /// whose window never reaches a segment does not announce the room its reads make (RFC 9293 §3.8.6.2.2, the
    /// silly window syndrome avoidance). The server's kernel then learns of it only from its zero-window probes,
    /// whose interval doubles from 200 ms up to two minutes: a stream read at once looked stalled for a minute.
    /// A client on a network has a segment of 1,460 bytes and a window of many.
    public init(port: Int, receiveTimeout: Duration = .seconds(10), receiveBufferSize: Int32? = nil, ipv6: Bool = false) throws {
        fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        if var size = receiveBufferSize {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            var segment = max(536, size / 4)
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_MAXSEG, &segment, socklen_t(MemoryLayout<Int32>.size))
        }
        let (seconds, attoseconds) = receiveTimeout.components
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, "::1", &address.sin6_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(fd)
            throw Failure(call: "connect", code: code)
        }
    }

    deinit { close() }

    /// Closes the connection (once; later calls do nothing).
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    /// Half-closes: the server sees the end of input.
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Sends all of `bytes`; throws when the connection takes no more (the server closed it, say).
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(call: "send", code: errno) }
            offset += sent
        }
    }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// One `recv` of up to `size` bytes.
    public func receive(upTo size: Int = 65_536) -> Received {
        var chunk = [UInt8](repeating: 0, count: size)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 { return .bytes(Array(chunk[0..<count])) }
        if count == 0 { return .closed }
        switch errno {
        case EAGAIN, EWOULDBLOCK, EINTR: return .timedOut
        case ECONNRESET: return .closed
        case let code: return .failed(code)
        }
    }

    /// Reads until `marker` has arrived (or the server closes, or a receive times out); returns what was read.
    public func read(until marker: String) -> String {
        var received: [UInt8] = []
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            guard case .bytes(let bytes) = receive() else { break }
            received += bytes
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Everything until the server closes (or a receive times out).
    public func readUntilClose() -> [UInt8] {
        var received: [UInt8] = []
        while case .bytes(let bytes) = receive() { received += bytes }
        return received
    }

    /// Sends `text` on a new connection to `port` and reads until the server closes it (or a read times out).
    public static func exchange(port: Int, _ text: String, receiveTimeout: Duration = .seconds(2)) throws -> String {
        let socket = try RawSocket(port: port, receiveTimeout: receiveTimeout)
        try socket.send(text)
        return String(decoding: socket.readUntilClose(), as: UTF8.self)
    }
}
