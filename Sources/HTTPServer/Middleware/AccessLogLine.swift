import Logging

/// One request's access-log line as ``AccessLogMiddleware`` knows it, before it is formatted: what a server's own
/// log format writes straight into bytes (``AccessLogWriter``), without a `Logger.Metadata` dictionary built,
/// merged and sorted for each request.
public struct AccessLogLine: Sendable {
    public var level: Logger.Level
    public var method: HTTPMethod
    /// The target with secrets redacted.
    public var target: String
    public var status: HTTPStatus
    /// The body's size, when the answer has a sized one.
    public var bytes: Int?
    /// How long the answer took.
    public var duration: Duration
    /// The pattern of the route that matched.
    public var route: String?
    /// The request's log metadata: its id (`request-id`) and what the middleware added (`tenant`), as the
    /// request's ``HTTPRequestContext/logger`` carries them.
    public var metadata: [(key: String, value: String)]

    public init(
        level: Logger.Level, method: HTTPMethod, target: String, status: HTTPStatus, bytes: Int?,
        duration: Duration, route: String?, metadata: [(key: String, value: String)]
    ) {
        self.level = level
        self.method = method
        self.target = target
        self.status = status
        self.bytes = bytes
        self.duration = duration
        self.route = route
        self.metadata = metadata
    }

    /// The duration in milliseconds with three decimals (`12.345`), as the `Logger` path writes it.
    public var durationMilliseconds: String { AccessLogMiddleware.milliseconds(duration) }

    /// The duration in whole microseconds, at least 0, for a writer that writes ``durationMilliseconds``'s digits
    /// itself (``AccessLogMiddleware/writeMilliseconds(microseconds:_:)``).
    public var durationMicroseconds: Int64 { AccessLogMiddleware.microseconds(duration) }

    /// The message, as the `Logger` path writes it: `GET /v1/devices 200`.
    public var message: String { "\(method) \(target) \(status.code)" }

    /// The line's metadata as the `Logger` path gives it (`http.method`, `http.target`, `http.status`,
    /// `http.duration_ms`, and `http.bytes` and `http.route` when known), with the request's own.
    public var allMetadata: [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = [
            ("http.method", method.rawValue), ("http.target", target), ("http.status", String(status.code)),
            ("http.duration_ms", durationMilliseconds),
        ]
        if let bytes { pairs.append(("http.bytes", String(bytes))) }
        if let route { pairs.append(("http.route", route)) }
        return pairs + metadata
    }
}

/// Writes access-log lines in a server's own format: given to ``AccessLogMiddleware``, it takes the place of
/// `context.logger` for them. It must write what the `Logger` path would have written for the same line.
public protocol AccessLogWriter: Sendable {
    func write(_ line: AccessLogLine)
}
