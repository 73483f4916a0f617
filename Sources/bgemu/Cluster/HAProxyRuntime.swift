import Foundation
import Glibc

/// HAProxy's runtime API on its stats socket (`stats socket … level admin` in `deploy/haproxy/haproxy.cfg`): one
/// command per connection, its answer read to the close. Used to change the tenant → shard map of a running proxy
/// without a reload (HAProxy management guide, "set map", "add map").
///
/// The socket is named as `stats socket` names it: a path (or `unix@PATH`) for a Unix socket, `ipv4@HOST:PORT` or
/// `ipv6@HOST:PORT` for a TCP one (how a replica on another machine or pod exposes it); a bare `HOST:PORT` is TCP.
struct HAProxyRuntime {
    /// The socket's address as given.
    var address: String
    /// How long connecting, sending and each read may take, in seconds: a replica that does not answer is reported,
    /// not waited for.
    var timeout: Int = 5

    init(address: String) {
        self.address = address
    }

    /// Where the address points.
    enum Endpoint: Equatable {
        case unix(String)
        case tcp(host: String, port: String, family: Int32)
    }

    /// The endpoint of `address`, after HAProxy's address prefixes; nil when it names none.
    static func endpoint(_ address: String) -> Endpoint? {
        func hostAndPort(_ rest: Substring, family: Int32) -> Endpoint? {
            guard let colon = rest.lastIndex(of: ":") else { return nil }
            var host = rest[..<colon]
            let port = rest[rest.index(after: colon)...]
            if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
            guard !host.isEmpty, let number = Int(port), (1...65_535).contains(number) else { return nil }
            return .tcp(host: String(host), port: String(port), family: family)
        }
        if address.hasPrefix("unix@") { return address.count > 5 ? .unix(String(address.dropFirst(5))) : nil }
        if address.hasPrefix("ipv4@") { return hostAndPort(address.dropFirst(5), family: AF_INET) }
        if address.hasPrefix("ipv6@") { return hostAndPort(address.dropFirst(5), family: AF_INET6) }
        if address.isEmpty { return nil }
        if address.hasPrefix("/") || address.hasPrefix(".") || !address.contains(":") { return .unix(address) }
        return hostAndPort(address[...], family: AF_UNSPEC)
    }

    /// Sends `command` and answers what HAProxy printed (empty for a command that succeeded silently).
    func send(_ command: String) throws -> String {
        let fd = try connect()
        defer { close(fd) }
        let line = Array((command + "\n").utf8)
        var sent = 0
        while sent < line.count {
            let n = line[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw CommandFailure.local("HAProxy's runtime API at \(address) closed before the command was sent") }
            sent += n
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                throw CommandFailure.local("HAProxy's runtime API at \(address) did not answer within \(timeout) s")
            }
            guard n > 0 else { break }
            answer += chunk[..<n]
        }
        return String(decoding: answer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A connected socket to the runtime API, with the timeouts set.
    private func connect() throws -> Int32 {
        guard let endpoint = Self.endpoint(address) else {
            throw CommandFailure.local("\(address) names no HAProxy runtime socket (a path, unix@PATH, ipv4@HOST:PORT or ipv6@HOST:PORT)")
        }
        switch endpoint {
        case .unix(let path):
            var socketAddress = sockaddr_un()
            socketAddress.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: socketAddress.sun_path) else {
                throw CommandFailure.local("the HAProxy socket path \(path) is too long for a Unix socket")
            }
            withUnsafeMutableBytes(of: &socketAddress.sun_path) { raw in
                for (i, byte) in bytes.enumerated() { raw[i] = byte }
            }
            return try withUnsafePointer(to: &socketAddress) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try open(family: AF_UNIX, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        case .tcp(let host, let port, let family):
            var hints = addrinfo()
            hints.ai_family = family
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let resolved = getaddrinfo(host, port, &hints, &list)
            guard resolved == 0, let first = list else {
                throw CommandFailure.local("cannot resolve \(host) for HAProxy's runtime API at \(address): \(String(cString: gai_strerror(resolved)))")
            }
            defer { freeaddrinfo(list) }
            return try open(family: first.pointee.ai_family, first.pointee.ai_addr, first.pointee.ai_addrlen)
        }
    }

    /// A socket of `family` connected to `socketAddress`, its send and receive timeouts (which bound `connect` too)
    /// set to ``timeout``.
    private func open(family: Int32, _ socketAddress: UnsafePointer<sockaddr>, _ length: socklen_t) throws -> Int32 {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else {
            throw CommandFailure.local("cannot open a socket for HAProxy's runtime API: \(String(cString: strerror(errno)))")
        }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard Glibc.connect(fd, socketAddress, length) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CommandFailure.local("cannot reach HAProxy's runtime API at \(address): \(reason)")
        }
        return fd
    }

    /// Maps `key` to `value` in the running proxy's map `mapPath`: `set map` when the key is there, else `add map`.
    func place(_ key: String, _ value: String, inMap mapPath: String) throws {
        let set = try send("set map \(mapPath) \(key) \(value)")
        if set.isEmpty { return }
        guard set.lowercased().contains("not found") else {
            throw CommandFailure.local("HAProxy at \(address) refused `set map \(mapPath) \(key) \(value)`: \(set)")
        }
        let add = try send("add map \(mapPath) \(key) \(value)")
        guard add.isEmpty else { throw CommandFailure.local("HAProxy at \(address) refused `add map \(mapPath) \(key) \(value)`: \(add)") }
    }

    /// The value `key` has in the running proxy's map `mapPath`, nil when it has none.
    func value(of key: String, inMap mapPath: String) throws -> String? {
        // `get map` answers `type=str, case=sensitive, found=yes, idx=tree, key="…", value="…"` (or found=no).
        let answer = try send("get map \(mapPath) \(key)")
        guard answer.contains("found=yes"), let range = answer.range(of: "value=\"") else { return nil }
        return String(answer[range.upperBound...].prefix { $0 != "\"" })
    }
}
