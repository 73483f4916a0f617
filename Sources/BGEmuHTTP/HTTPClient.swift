import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small blocking HTTP/1.1 client for `http://host:port` (no TLS): one request per connection, read until the
/// server closes it. Enough for the CLI (and the end-to-end tests) to call the service without FoundationNetworking
/// or libcurl.
public struct HTTPClient: Sendable {
    public let host: String
    public let port: Int
    public let basePath: String
    public let apiKey: String
    /// Seconds a connection may stay silent before the request fails.
    public var timeout = 300

    /// A response as read from the wire, its body de-chunked.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]

        public init(status: Int, headers: [(String, String)], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The first value of the header `name`, compared case-insensitively.
        public func header(_ name: String) -> String? { headers.first { $0.0.headerNameEquals(name) }?.1 }
    }

    public enum ClientError: Error, CustomStringConvertible {
        case badURL(String), resolve(String), connect(String), send(reason: String), malformed, timedOut, closedEarly

        public var description: String {
            switch self {
            case .badURL(let url): "not an http:// URL: \(url)"
            case .resolve(let host): "cannot resolve \(host)"
            case .connect(let target): "cannot connect to \(target)"
            case .send(let reason): "the connection broke while sending (\(reason))"
            case .malformed: "the server's answer is not HTTP"
            case .timedOut: "the server stayed silent too long"
            case .closedEarly: "the server closed the connection in the middle of its answer"
            }
        }
    }

    /// - Parameter base: `http://host:port` with an optional base path.
    public init(base: String, apiKey: String) throws {
        guard let url = URL(string: base), url.scheme == "http", let host = url.host, !host.isEmpty else {
            throw ClientError.badURL(base)
        }
        self.host = host
        port = url.port ?? 80
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        basePath = path
        self.apiKey = apiKey
    }

    /// Writes `bytes` on a new connection to `host:port` and reads until the server closes it (or `timeout`
    /// seconds of silence).
    public static func exchange(host: String, port: Int, bytes: [UInt8], timeout: Int) throws -> [UInt8] {
        let fd = try connectSocket(host: host, port: port, timeout: timeout)
        defer { PlatformSocket.close(fd) }
        try sendAll(fd, bytes)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return received
    }

    /// A connected TCP socket to `host:port` whose reads time out after `timeout` seconds of silence; the caller
    /// closes it.
    static func connectSocket(host: String, port: Int, timeout: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = PlatformSocket.streamType
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { throw ClientError.resolve(host) }
        defer { freeaddrinfo(list) }
        var fd: Int32 = -1
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if fd >= 0, connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { break }
            if fd >= 0 { PlatformSocket.close(fd) }
            fd = -1
            candidate = info.pointee.ai_next
        }
        guard fd >= 0 else { throw ClientError.connect("\(host):\(port)") }
        PlatformSocket.prepare(fd)
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Writes every byte of `bytes` to `fd`; a signal that interrupts a `send` before it wrote anything (`EINTR`)
    /// is not a broken connection: the `send` is made again.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { PlatformSocket.send(fd, $0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw ClientError.send(reason: n < 0 ? String(cString: strerror(errno)) : "nothing was sent") }
            sent += n
        }
    }

    /// Reads one response: sized, chunked or close-delimited (RFC 9112 §6.3).
    public static func parse(_ raw: [UInt8]) throws -> Response {
        guard let end = Self.find([13, 10, 13, 10], in: raw, from: 0) else { throw ClientError.malformed }
        let head = String(decoding: raw[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = head[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw ClientError.malformed }
        let headers: [(String, String)] = head.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = Response(status: status, headers: headers, body: Array(raw[(end + 4)...]))
        if let length = response.header("Content-Length").flatMap(Int.init) {
            response.body = Array(response.body.prefix(length))
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            response.body = Self.dechunk(response.body)
        }
        return response
    }

    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while let lineEnd = find([13, 10], in: bytes, from: i) {
            let size = Int(String(decoding: bytes[i..<lineEnd], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
            if size == 0 { break }
            let start = lineEnd + 2
            out += bytes[start..<min(bytes.count, start + size)]
            i = start + size + 2
        }
        return out
    }

    /// The first index of `needle` in `haystack` at or after `start`.
    public static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for i in start...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }
}
