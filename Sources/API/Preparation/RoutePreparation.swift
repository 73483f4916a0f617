import HTTPServer

/// The heavy part of a route that reads only the request — an upload's gzip inflation, archive inspection and
/// plist parsing — declared apart from the handler so that ``PreparationMiddleware`` runs it **before** the writes
/// begin: outside the idempotency middleware's gate and transaction (a keyed upload once held every tenant's
/// writes for the whole of its archive's inspection), on the ``Service/HeavyWorkPool``'s threads, counted
/// against the tenant's own share of them.
///
/// The handler takes the outcome with ``HTTPRequestContext/prepared(_:)``: a failure of the preparation is
/// thrown there, inside the handler, so that the idempotency middleware stores and replays it as before.
struct RoutePreparation: Sendable {
    /// The route's method and whole pattern, as ``HTTPRequestContext/route`` reports it.
    let method: HTTPMethod
    let route: String
    let prepare: @Sendable (HTTPRequest) throws -> any Sendable
    /// What the route takes of a gzip body's content, judged from its first bytes as they are decoded (see
    /// ``HTTPServer/HTTPRequest/decodeContentCoding(limitFor:)``): nil leaves the route's body limit.
    let contentLimit: @Sendable (HTTPRequest, UnsafeRawBufferPointer) -> DecodedContentLimit?

    init<Prepared: Sendable>(
        _ method: HTTPMethod, _ route: String,
        contentLimit: @escaping @Sendable (HTTPRequest, UnsafeRawBufferPointer) -> DecodedContentLimit? = { _, _ in nil },
        _ prepare: @escaping @Sendable (HTTPRequest) throws -> Prepared
    ) {
        self.method = method
        self.route = route
        self.contentLimit = contentLimit
        self.prepare = { try prepare($0) }
    }

    /// The key of a route in ``PreparationMiddleware``'s table.
    var key: String { "\(method.rawValue) \(route)" }
}

/// The outcome of a request's preparation, in its context.
enum PreparedRequest: HTTPContextKey {
    typealias Value = Result<any Sendable, any Error>
}

extension HTTPRequestContext {
    /// The value the route's preparation made, or nil when it made none (no ``PreparationMiddleware`` in front,
    /// as in a scenario's step): the handler then prepares the request itself. Throws what the preparation threw.
    func prepared<Prepared: Sendable>(_ type: Prepared.Type) throws -> Prepared? {
        guard let outcome = self[PreparedRequest.self] else { return nil }
        return try outcome.get() as? Prepared
    }
}
