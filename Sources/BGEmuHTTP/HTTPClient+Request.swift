import Foundation

extension HTTPClient {
    /// The request head for `method path` on this client's server: `Host`, `Connection: close`, the API key as a
    /// bearer token (unless `headers` carries an `Authorization` of its own, or the key is empty), then `headers`,
    /// and `Content-Length` when there is a body or the method carries one.
    func head(_ method: String, _ path: String, headers: [(String, String)], bodyLength: Int) -> [UInt8] {
        var head = "\(method) \(basePath)\(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        if !apiKey.isEmpty, !headers.contains(where: { $0.0.headerNameEquals("Authorization") }) {
            head += "Authorization: Bearer \(apiKey)\r\n"
        }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if bodyLength > 0 || ["POST", "PUT", "PATCH"].contains(method) { head += "Content-Length: \(bodyLength)\r\n" }
        head += "\r\n"
        return Array(head.utf8)
    }

    /// Sends one request and reads its whole response (the server closes the connection after it).
    ///
    /// - Parameters:
    ///   - path: the path and query, appended to the base URL's path; the caller percent-encodes it.
    ///   - headers: sent as given, after `Host`, `Connection` and `Authorization`.
    public func send(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> Response {
        let bytes = head(method, path, headers: headers, bodyLength: body.count) + body
        return try Self.parse(try Self.exchange(host: host, port: port, bytes: bytes, timeout: timeout))
    }
}
