import Foundation
import Glibc

/// A minimal blocking HTTP/1.1 client over a loopback socket: one request per connection, read to the end.
struct TestClient {
    let port: Int
    var key: String?

    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
    }

    func request(
        _ method: String, _ path: String, json: String? = nil, body: [UInt8]? = nil, headers: [(String, String)] = []
    ) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let key { head += "Authorization: Bearer \(key)\r\n" }
        var payload = body ?? []
        if let json {
            payload = Array(json.utf8)
            head += "Content-Type: application/json\r\n"
        }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !payload.isEmpty || ["POST", "PUT", "PATCH"].contains(method) { head += "Content-Length: \(payload.count)\r\n" }
        head += "\r\n"
        let raw = try Self.exchange(port: port, bytes: Array(head.utf8) + payload)
        return try Self.parse(raw)
    }

    /// Writes `bytes` on a new connection and reads until the server closes it (or 10 s pass).
    static func exchange(port: Int, bytes: [UInt8]) throws -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError.socket }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw ClientError.connect }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw ClientError.send }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return received
    }

    /// Parses one response (sized, chunked or close-delimited).
    static func parse(_ raw: [UInt8]) throws -> Response {
        guard let end = find([13, 10, 13, 10], in: raw, from: 0) else { throw ClientError.malformed(raw.count) }
        let head = String(decoding: raw[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw ClientError.malformed(raw.count) }
        let headers: [(String, String)] = head.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Array(raw[(end + 4)...])
        let response = Response(status: status, headers: headers, body: [])
        if let length = response.header("Content-Length").flatMap(Int.init) {
            body = Array(body.prefix(length))
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            body = dechunk(body)
        }
        return Response(status: status, headers: headers, body: body)
    }

    static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while let lineEnd = find([13, 10], in: bytes, from: i) {
            let size = Int(String(decoding: bytes[i..<lineEnd], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
            if size == 0 { break }
            let start = lineEnd + 2
            out += bytes[start..<min(bytes.count, start + size)]
            i = start + size + 2
        }
        return out
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for i in start...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }

    enum ClientError: Error { case socket, connect, send, malformed(Int) }
}
