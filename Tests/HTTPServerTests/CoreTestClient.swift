import Glibc

/// Why a test client call failed.
enum CoreTestError: Error, Equatable {
    case timedOut
    case closed
    case malformed(String)
    case system(String, Int32)
}

/// A response as the test client read it.
struct CoreTestResponse {
    var status: Int
    var reason: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The first value of `name`, case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of `name`, case-insensitively.
    func headers(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A tiny blocking HTTP/1.1 client on a raw TCP socket, with a receive timeout, for talking to the server
/// byte for byte: it sends exactly what a test writes and parses responses itself.
final class CoreTestClient {
    let fd: Int32
    /// Bytes received and not consumed yet.
    private var buffer: [UInt8] = []
    private var sawEOF = false

    /// Connects to 127.0.0.1:`port` (or [::1] when `ipv6`); reads give up after `timeout`.
    init(port: Int, timeout: Duration = .seconds(5), receiveBufferSize: Int32? = nil, ipv6: Bool = false) throws {
        fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CoreTestError.system("socket", errno) }
        if var size = receiveBufferSize {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let (seconds, attoseconds) = timeout.components
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let result: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, "::1", &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw CoreTestError.system("connect", code)
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard result > 0 else { throw CoreTestError.system("send", errno) }
            sent += result
        }
    }

    /// Sends `text` as UTF-8.
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends a request with the given head fields and body; adds `Host` and `Content-Length` unless told not to.
    func request(_ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: test\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + body)
    }

    /// Half-closes: the server sees end of input.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Receives more bytes into the buffer; false at end of stream.
    private func fill() throws -> Bool {
        if sawEOF { return false }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[..<count])
            return true
        }
        if count == 0 {
            sawEOF = true
            return false
        }
        if errno == EAGAIN || errno == EWOULDBLOCK { throw CoreTestError.timedOut }
        if errno == ECONNRESET {
            sawEOF = true
            return false
        }
        throw CoreTestError.system("recv", errno)
    }

    /// The next line without its CRLF.
    func readLine() throws -> String {
        while true {
            if let lf = buffer.firstIndex(of: 10) {
                var line = Array(buffer[..<lf])
                buffer.removeFirst(lf + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw CoreTestError.closed }
        }
    }

    /// Exactly `count` bytes.
    func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw CoreTestError.closed }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// The status line and header fields of the next response.
    func readHead() throws -> CoreTestResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw CoreTestError.malformed(statusLine)
        }
        var response = CoreTestResponse(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: [], body: [])
        while true {
            let line = try readLine()
            if line.isEmpty { return response }
            guard let colon = line.firstIndex(of: ":") else { throw CoreTestError.malformed(line) }
            let value = line[line.index(after: colon)...].trimmingPrefix(" ")
            response.headers.append((name: String(line[..<colon]), value: String(value)))
        }
    }

    /// The next response, body included: `Content-Length`, chunked, or up to the close. `noBody` for answers
    /// to HEAD; 1xx, 204 and 304 never have one.
    func readResponse(noBody: Bool = false) throws -> CoreTestResponse {
        var response = try readHead()
        if noBody || response.status < 200 || response.status == 204 || response.status == 304 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while let chunk = try readChunk() { response.body += chunk }
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try readBytes(length)
        } else {
            response.body = try readUntilClose()
        }
        return response
    }

    /// The data of the next chunk of a chunked body; nil at the last chunk (trailers are skipped).
    func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.prefix { $0 != ";" }, radix: 16) else { throw CoreTestError.malformed(sizeLine) }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let data = try readBytes(size)
        guard try readLine().isEmpty else { throw CoreTestError.malformed("chunk without CRLF") }
        return data
    }

    /// Everything until the server closes.
    func readUntilClose() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// Whether the server closed the connection with nothing more to read (waits up to the receive timeout).
    func isClosedByServer() -> Bool {
        guard buffer.isEmpty else { return false }
        do { return try !fill() } catch { return false }
    }
}
