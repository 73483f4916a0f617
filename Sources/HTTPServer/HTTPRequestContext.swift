import Logging
import Synchronization

/// What the server knows about a request besides the request itself, handed down the middleware chain.
public struct HTTPRequestContext: Sendable {
    /// The request's id: the client's `X-Request-Id` when it sent a valid one, else one the server made.
    /// The server writes it back on every response.
    public var requestId: String
    /// A logger carrying the request id and the ``addLogMetadata(_:_:)`` pairs as metadata (added when it is asked
    /// for: most requests log nothing, and setting metadata on every request's logger was 3.6 % of a device read's
    /// CPU for the id, and 3 % more for the tenant).
    public var logger: Logger {
        get {
            var logger = baseLogger
            logger[metadataKey: "request-id"] = .string(requestId)
            for (key, value) in addedMetadata.pairs { logger[metadataKey: key] = .string(value) }
            return logger
        }
        set { baseLogger = newValue }
    }
    private var baseLogger: Logger
    /// Shared by every copy of the context, so that a middleware outside (the access log) logs what one inside
    /// learned (the tenant).
    private let addedMetadata = AddedLogMetadata()
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

    /// Adds `key: value` to the metadata of the request's log lines (the tenant it was authenticated as, say),
    /// replacing an earlier value of `key`: every copy of this context logs it from now on, those of the middleware
    /// around the one adding it included. It reaches a ``logger`` only when one is asked for.
    public func addLogMetadata(_ key: String, _ value: String) {
        addedMetadata.add(key, value)
    }

    /// The metadata ``logger`` carries for this request — its id, then the ``addLogMetadata(_:_:)`` pairs — without
    /// making the logger.
    public var logMetadata: [(key: String, value: String)] { [("request-id", requestId)] + addedMetadata.pairs }

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

/// Log metadata a request's middleware and handlers added, shared by the copies of its context.
private final class AddedLogMetadata: Sendable {
    private let storage = Mutex<[(key: String, value: String)]>([])

    var pairs: [(key: String, value: String)] { storage.withLock { $0 } }

    func add(_ key: String, _ value: String) {
        storage.withLock { pairs in
            pairs.removeAll { $0.key == key }
            pairs.append((key, value))
        }
    }
}
