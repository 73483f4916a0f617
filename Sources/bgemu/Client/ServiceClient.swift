import Foundation
import BGEmuHTTP

/// The bgemu service as the client commands call it: paths and queries built safely, answers decoded, and every
/// failure a ``CommandFailure``.
struct ServiceClient {
    let base: String
    var http: HTTPClient

    init(base: String, key: String) throws {
        self.base = base
        do {
            http = try HTTPClient(base: base, apiKey: key)
        } catch {
            throw CommandFailure.local("--server must be an http:// URL such as \(ClientOptions.defaultServer), not \"\(base)\"")
        }
        http.timeout = 120
    }

    /// Sends a request; a non-2xx answer or an unreachable service throws.
    func send(
        _ method: String, _ path: String, query: [(String, String)] = [], headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> HTTPClient.Response {
        let response: HTTPClient.Response
        do {
            response = try http.send(method, path + Self.queryString(query), headers: headers, body: body)
        } catch let error as HTTPClient.ClientError {
            throw CommandFailure.unreachable(server: base, reason: error.description)
        }
        guard (200..<300).contains(response.status) else {
            throw CommandFailure.refused(status: response.status, body: response.body, contentType: response.header("Content-Type"))
        }
        return response
    }

    /// Sends a request with a JSON body (or none) and decodes the JSON object it answers.
    func json(
        _ method: String, _ path: String, query: [(String, String)] = [], headers: [(String, String)] = [], json body: Any? = nil
    ) throws -> [String: Any] {
        var headers = headers + [("Accept", "application/json")]
        var bytes: [UInt8] = []
        if let body {
            bytes = Array(try JSONSerialization.data(withJSONObject: body))
            headers.append(("Content-Type", "application/json"))
        }
        return try Self.object(try send(method, path, query: query, headers: headers, body: bytes))
    }

    /// The JSON object of an answer; anything else is a failure that shows the body.
    static func object(_ response: HTTPClient.Response) throws -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] else {
            throw CommandFailure.local("the service answered \(response.status) with a body that is not a JSON object")
        }
        return object
    }

    /// Every item of a paged list, following `nextCursor` to the last page.
    func allItems(_ path: String, query: [(String, String)] = [], limit: Int = 500) throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var cursor: String?
        repeat {
            var pageQuery = query + [("limit", String(limit))]
            if let cursor { pageQuery.append(("cursor", cursor)) }
            let page = try json("GET", path, query: pageQuery)
            items += page["items"] as? [[String: Any]] ?? []
            cursor = page["nextCursor"] as? String
        } while cursor != nil
        return items
    }

    /// Opens a streaming answer; the caller reads and closes it. A non-2xx answer throws with its problem.
    func open(
        _ path: String, query: [(String, String)] = [], headers: [(String, String)] = []
    ) throws -> HTTPClient.StreamingResponse {
        let stream: HTTPClient.StreamingResponse
        do {
            stream = try http.open("GET", path + Self.queryString(query), headers: headers)
        } catch let error as HTTPClient.ClientError {
            throw CommandFailure.unreachable(server: base, reason: error.description)
        }
        guard (200..<300).contains(stream.status) else {
            let body = (try? stream.readAll()) ?? []
            stream.close()
            throw CommandFailure.refused(status: stream.status, body: body, contentType: stream.head.header("Content-Type"))
        }
        return stream
    }

    /// RFC 3986 §2.3 unreserved characters: everything else in a path segment or query value is percent-encoded.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` percent-encoded as one path segment or one query name or value.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `/v1/devices/{device}/…` with every segment encoded: `path("v1", "devices", id)`.
    static func path(_ segments: String...) -> String {
        "/" + segments.map(encode).joined(separator: "/")
    }

    /// `?a=1&b=2` (empty for no items), names and values encoded.
    static func queryString(_ items: [(String, String)]) -> String {
        items.isEmpty ? "" : "?" + items.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }
}
