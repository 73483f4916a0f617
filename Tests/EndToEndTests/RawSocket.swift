import Glibc

/// A raw loopback TCP connection to the service, for the tests that speak HTTP to it byte by byte: an upload held
/// half sent, an event stream read by hand (``EventStreamConnection``) or not at all (``LaggingStream``). The one
/// socket client of this target: connect, send everything, receive with a timeout.
final class RawSocket {
    let fd: Int32
    private var closed = false

    /// What one receive got.
    enum Received: Equatable {
        case bytes([UInt8])
        /// The server closed the connection (or reset it).
        case closed
        /// Nothing arrived within the receive timeout.
        case timedOut
        /// Another error of `recv`, with its `errno`.
        case failed(Int32)
    }

    struct Failure: Error, Equatable {
        var call: String
        var code: Int32
    }

    /// Connects to 127.0.0.1:`port`. A receive gives up after `receiveTimeout`; `receiveBufferSize` shrinks the
    /// kernel's receive buffer, set before connecting so that the window is small from the first byte.
    init(port: Int, receiveTimeout: Duration = .seconds(10), receiveBufferSize: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        if var size = receiveBufferSize {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let (seconds, attoseconds) = receiveTimeout.components
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(fd)
            throw Failure(call: "connect", code: code)
        }
    }

    deinit { close() }

    /// Closes the connection (once; later calls do nothing).
    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    /// Sends all of `bytes`; throws when the connection takes no more (the server closed it, say).
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(call: "send", code: errno) }
            offset += sent
        }
    }

    /// Sends `text` as UTF-8.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// One `recv` of up to `size` bytes.
    func receive(upTo size: Int = 65_536) -> Received {
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
    func read(until marker: String) -> String {
        var received: [UInt8] = []
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            guard case .bytes(let bytes) = receive() else { break }
            received += bytes
        }
        return String(decoding: received, as: UTF8.self)
    }
}
