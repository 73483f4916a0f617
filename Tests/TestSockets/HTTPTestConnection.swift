/// A tiny blocking HTTP/1.1 client on a ``RawSocket``, for talking to a server byte for byte: it sends exactly
/// what a test writes and parses the answers itself (`Content-Length`, chunked, or up to the close), one after
/// another on a keep-alive connection.
public final class HTTPTestConnection {
    /// Why a read failed.
    public enum Failure: Error, Equatable {
        case timedOut
        case closed
        case malformed(String)
        case system(String, Int32)
    }

    public let socket: RawSocket
    /// Bytes received and not consumed yet.
    private var buffer: [UInt8] = []
    private var sawEOF = false

    /// The socket's descriptor.
    public var fd: Int32 { socket.fd }

    /// Connects to 127.0.0.1:`port` (or [::1] when `ipv6`); reads give up after `timeout`.
    public init(port: Int, timeout: Duration = .seconds(5), receiveBufferSize: Int32? = nil, ipv6: Bool = false) throws {
        do {
            socket = try RawSocket(port: port, receiveTimeout: timeout, receiveBufferSize: receiveBufferSize, ipv6: ipv6)
        } catch let failure as RawSocket.Failure {
            throw Failure.system(failure.call, failure.code)
        }
    }

    /// Sends all of `bytes`.
    public func send(_ bytes: [UInt8]) throws {
        do { try socket.send(bytes) } catch let failure as RawSocket.Failure { throw Failure.system(failure.call, failure.code) }
    }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends a request with the given head fields and body; adds `Host` and `Content-Length` (when there is a body).
    public func request(_ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: test\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + body)
    }

    /// Half-closes: the server sees the end of input.
    public func shutdownWrite() { socket.shutdownWrite() }

    /// Receives more bytes into the buffer; false at the end of the stream.
    private func fill() throws -> Bool {
        if sawEOF { return false }
        switch socket.receive() {
        case .bytes(let bytes):
            buffer.append(contentsOf: bytes)
            return true
        case .closed:
            sawEOF = true
            return false
        case .timedOut: throw Failure.timedOut
        case .failed(let code): throw Failure.system("recv", code)
        }
    }

    /// The next line without its CRLF.
    public func readLine() throws -> String {
        while true {
            if let lf = buffer.firstIndex(of: 10) {
                var line = Array(buffer[..<lf])
                buffer.removeFirst(lf + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw Failure.closed }
        }
    }

    /// Exactly `count` bytes.
    public func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw Failure.closed }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// The status line and header fields of the next response.
    public func readHead() throws -> HTTPTestResponse {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw Failure.malformed(statusLine)
        }
        var response = HTTPTestResponse(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: [], body: [])
        while true {
            let line = try readLine()
            if line.isEmpty { return response }
            guard let colon = line.firstIndex(of: ":") else { throw Failure.malformed(line) }
            let value = line[line.index(after: colon)...].trimmingPrefix(" ")
            response.headers.append((name: String(line[..<colon]), value: String(value)))
        }
    }

    /// The next response, body included: `Content-Length`, chunked, or up to the close. `noBody` for answers
    /// to HEAD; 1xx, 204 and 304 never have one.
    public func readResponse(noBody: Bool = false) throws -> HTTPTestResponse {
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
    public func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.prefix { $0 != ";" }, radix: 16) else { throw Failure.malformed(sizeLine) }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let data = try readBytes(size)
        guard try readLine().isEmpty else { throw Failure.malformed("chunk without CRLF") }
        return data
    }

    /// Everything until the server closes.
    public func readUntilClose() throws -> [UInt8] {
        while try fill() {}
        defer { buffer = [] }
        return buffer
    }

    /// Whether the server closed the connection with nothing more to read (waits up to the receive timeout).
    public func isClosedByServer() -> Bool {
        guard buffer.isEmpty else { return false }
        do { return try !fill() } catch { return false }
    }
}
