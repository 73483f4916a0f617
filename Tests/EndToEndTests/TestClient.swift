import Foundation
import BGEmuHTTP

/// The service's own small HTTP client with a test's defaults: loopback, an optional key, JSON bodies.
struct TestClient {
    let port: Int
    var key: String?

    typealias Response = HTTPClient.Response

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
        return try Self.parse(Self.exchange(port: port, bytes: Array(head.utf8) + payload))
    }

    /// Writes `bytes` on a new loopback connection and reads until the server closes it (or 10 s pass).
    static func exchange(port: Int, bytes: [UInt8]) throws -> [UInt8] {
        try HTTPClient.exchange(host: "127.0.0.1", port: port, bytes: bytes, timeout: 10)
    }

    static func parse(_ raw: [UInt8]) throws -> Response { try HTTPClient.parse(raw) }
}

extension HTTPClient.Response {
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
}
