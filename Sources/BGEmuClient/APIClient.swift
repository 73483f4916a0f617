import BGEmuHTTP

/// The bgemu service as every client calls it — the CLI, BGEmuKit, `bgemu scenario run`: its routes as typed calls
/// (`APIClient+Devices.swift` and the files beside it), every path segment and query value encoded
/// (``PathEncoding``), every answer of 400 or more read into a ``ServiceProblem``, every list followed to its last
/// page, every event stream read by one ``ServerSentEventParser`` and resumed with `Last-Event-ID`. Each failure is
/// a ``ClientFailure``. Blocking: a call returns when the service has answered (one connection per request, over
/// ``HTTPClient``). Knows nothing of the server's modules.
public struct APIClient: Sendable {
    /// The service's base URL as given (`http://127.0.0.1:8080`).
    public let server: String
    /// The transport: its `timeout` is the silence, in seconds, after which a call fails.
    public var http: HTTPClient

    /// - Parameters:
    ///   - server: `http://host:port`, with an optional base path.
    ///   - apiKey: a tenant's key (or the admin token), sent as a bearer token; empty for none.
    ///   - timeout: seconds of silence after which a call fails.
    public init(server: String, apiKey: String, timeout: Int = 120) throws(ClientFailure) {
        self.server = server
        do { http = try HTTPClient(base: server, apiKey: apiKey) } catch { throw .invalidServer(server) }
        http.timeout = timeout
    }

    /// Sends a request; an answer of 400 or more throws ``ClientFailure/refused(_:)`` with its problem, a service
    /// that cannot be reached ``ClientFailure/unreachable(server:reason:)``.
    ///
    /// - Parameter path: the path, its segments already encoded (``PathEncoding/path(_:)-(String...)``).
    public func send(
        _ method: String, _ path: String, query: [(String, String)] = [], headers: [(String, String)] = [],
        body: [UInt8] = []
    ) throws(ClientFailure) -> HTTPClient.Response {
        let response: HTTPClient.Response
        do {
            response = try http.send(method, path + PathEncoding.query(query), headers: headers, body: body)
        } catch {
            throw .unreachable(server: server, reason: Self.reason(error))
        }
        guard response.status < 400 else {
            throw .refused(ServiceProblem(status: response.status, body: response.body, contentType: response.header("Content-Type")))
        }
        return response
    }

    /// Sends a request with a JSON body (or none) and answers the JSON it answers (`null` for an empty body).
    @discardableResult
    public func json(
        _ method: String, _ path: String, query: [(String, String)] = [], body: JSONValue? = nil,
        headers: [(String, String)] = []
    ) throws(ClientFailure) -> JSONValue {
        var headers = headers + [("Accept", "application/json")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return try Self.decode(send(method, path, query: query, headers: headers, body: body?.bytes ?? []), method, path)
    }

    /// Sends `bytes` of `contentType` (an `Info.plist`, an archive, a payload) and answers the JSON it answers.
    @discardableResult
    public func upload(
        _ method: String, _ path: String, query: [(String, String)] = [], bytes: [UInt8], contentType: String,
        headers: [(String, String)] = []
    ) throws(ClientFailure) -> JSONValue {
        let headers = headers + [("Content-Type", contentType), ("Accept", "application/json")]
        return try Self.decode(send(method, path, query: query, headers: headers, body: bytes), method, path)
    }

    /// Opens a streaming answer (a `text/event-stream`); the caller reads and closes it. A refusal throws with its
    /// problem.
    public func open(
        _ path: String, query: [(String, String)] = [], headers: [(String, String)] = []
    ) throws(ClientFailure) -> HTTPClient.StreamingResponse {
        let stream: HTTPClient.StreamingResponse
        do {
            stream = try http.open("GET", path + PathEncoding.query(query), headers: headers)
        } catch {
            throw .unreachable(server: server, reason: Self.reason(error))
        }
        guard stream.status < 400 else {
            let body = (try? stream.readAll()) ?? []
            stream.close()
            throw .refused(ServiceProblem(status: stream.status, body: body, contentType: stream.head.header("Content-Type")))
        }
        return stream
    }

    /// The JSON of a 2xx answer.
    static func decode(_ response: HTTPClient.Response, _ method: String, _ path: String) throws(ClientFailure) -> JSONValue {
        do { return try JSONValue.parse(response.body) } catch {
            throw .badAnswer("\(method) \(path) answered \(response.status) with a body that is not JSON")
        }
    }

    static func reason(_ error: any Error) -> String {
        (error as? HTTPClient.ClientError)?.description ?? "\(error)"
    }
}
