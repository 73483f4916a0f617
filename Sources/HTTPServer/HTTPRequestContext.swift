import Logging

/// What the server knows about a request besides the request itself, handed down the middleware chain.
public struct HTTPRequestContext: Sendable {
    /// The request's id: the client's `X-Request-Id` when it sent a valid one, else one the server made.
    /// The server writes it back on every response.
    public var requestId: String
    /// A logger carrying the request id as metadata (added when it is asked for: most requests log nothing, and
    /// setting metadata on every request's logger was 3.6 % of a device read's CPU).
    public var logger: Logger {
        get {
            var logger = baseLogger
            logger[metadataKey: "request-id"] = .string(requestId)
            return logger
        }
        set { baseLogger = newValue }
    }
    private var baseLogger: Logger
    /// Values bound by the route's pattern (`{deviceId}`), percent-decoded.
    public var parameters: HTTPParameters
    /// The pattern of the route that matched (`/v1/devices/{deviceId}`), for logs and metrics.
    public var route: String?
    /// The peer's address as text.
    public var remoteAddress: String
    private var values: [ObjectIdentifier: any Sendable] = [:]

    public init(requestId: String, logger: Logger, remoteAddress: String = "") {
        self.requestId = requestId
        self.baseLogger = logger
        self.parameters = HTTPParameters()
        self.remoteAddress = remoteAddress
    }

    /// Whether the logger writes messages at `level`, without making it.
    public func logs(at level: Logger.Level) -> Bool { baseLogger.logLevel <= level }

    /// A typed value that a middleware attached for later handlers (the authenticated tenant, say).
    public subscript<Key: HTTPContextKey>(key: Key.Type) -> Key.Value? {
        get { values[ObjectIdentifier(key)] as? Key.Value }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}

/// A key for a typed value in `HTTPRequestContext`.
public protocol HTTPContextKey {
    associatedtype Value: Sendable
}

/// The values bound by a route pattern's `{name}` segments.
public struct HTTPParameters: Sendable {
    private var storage: [(name: String, value: String)] = []
    public init() {}
    public subscript(name: String) -> String? {
        get { storage.first { $0.name == name }?.value }
        set {
            storage.removeAll { $0.name == name }
            if let newValue { storage.append((name: name, value: newValue)) }
        }
    }
    public var all: [(name: String, value: String)] { storage }
}
