import Glibc

/// An IPv4 or IPv6 socket address, stored as `sockaddr_storage`.
struct SocketAddress: Sendable {
    private var storage = sockaddr_storage()

    /// The address family, `AF_INET` or `AF_INET6`.
    var family: Int32 { Int32(storage.ss_family) }

    /// Parses `host` as an IPv4 or IPv6 literal, `localhost` meaning 127.0.0.1.
    init?(host: String, port: UInt16) {
        let literal = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { raw in
                withUnsafeBytes(of: v4) { raw.copyMemory(from: $0) }
            }
            return
        }
        var v6 = sockaddr_in6()
        let trimmed = literal.hasPrefix("[") && literal.hasSuffix("]") ? String(literal.dropFirst().dropLast()) : literal
        if inet_pton(AF_INET6, trimmed, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { raw in
                withUnsafeBytes(of: v6) { raw.copyMemory(from: $0) }
            }
            return
        }
        return nil
    }

    private init(storage: sockaddr_storage) { self.storage = storage }

    /// The address `fd` is bound to (`getsockname`).
    static func local(of fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return result == 0 ? SocketAddress(storage: storage) : nil
    }

    /// Wraps an address filled in by `accept4`.
    static func accepted(_ storage: sockaddr_storage) -> SocketAddress { SocketAddress(storage: storage) }

    /// The port in host byte order.
    var port: UInt16 {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET: UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
            case AF_INET6: UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
            default: 0
            }
        }
    }

    /// The IP address as text (`127.0.0.1`, `::1`), without the port.
    var ipText: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let ok: Bool = withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET:
                var addr = raw.load(as: sockaddr_in.self).sin_addr
                return inet_ntop(AF_INET, &addr, &text, socklen_t(text.count)) != nil
            case AF_INET6:
                var addr = raw.load(as: sockaddr_in6.self).sin6_addr
                return inet_ntop(AF_INET6, &addr, &text, socklen_t(text.count)) != nil
            default:
                return false
            }
        }
        guard ok else { return "" }
        return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        let length = family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        return withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(length))
        }
    }
}
