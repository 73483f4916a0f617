/// Something that answers requests. Handlers run on the event loop thread that read the request, so they must
/// not block for long: work in memory and short SQLite transactions, nothing that waits on the network.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPResponse

    /// Whether the answer to a request is settled by its head alone (`head` has the method, target and fields,
    /// and an empty body), such as a `404`, a `405` or a refused credential. The server asks before it reads a
    /// body that has not arrived yet: on true it answers at once by calling `respond` with `head` and closes the
    /// connection, the body unread. The default, false, reads the body first. Must be cheap and have no effects.
    func answersWithoutBody(_ head: HTTPRequest, context: HTTPRequestContext) -> Bool
}

extension HTTPResponder {
    /// False: the body is read before the responder runs.
    public func answersWithoutBody(_ head: HTTPRequest, context: HTTPRequestContext) -> Bool { false }
}

/// A responder made from a closure: a route's handler. A body whose gzip coding the parser left for later (an
/// upload's, see ``HTTPRequest/hasDeferredContentCoding``) and no middleware removed is decoded here, on the
/// worker thread answering it, so that a handler always sees the content as if it had been sent uncoded.
public struct HTTPClosureResponder: HTTPResponder {
    public let closure: @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    public init(_ closure: @escaping @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse) {
        self.closure = closure
    }
    public func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPResponse {
        guard request.hasDeferredContentCoding else { return try closure(request, context) }
        var decoded = request
        try decoded.decodeContentCoding()
        return try closure(decoded, context)
    }
}

/// A step around the handler: it may change the request or context, answer itself, or call `next`.
public protocol HTTPMiddleware: Sendable {
    func handle(
        _ request: HTTPRequest, context: HTTPRequestContext,
        next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) throws -> HTTPResponse

    /// What this middleware does with a request whose body has not been read (see
    /// `HTTPResponder.answersWithoutBody`). The default, `.needsBody`, is always safe.
    func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict
}

extension HTTPMiddleware {
    /// `.needsBody`: the body is read before the middleware runs.
    public func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict { .needsBody }
}

/// A middleware's judgement of a request from its head alone, before the body is read.
public enum HTTPHeadVerdict: Sendable {
    /// The middleware may look at the body: it must be read first.
    case needsBody
    /// The middleware neither reads the body nor answers this request itself: what is inside it decides.
    case passes
    /// The middleware answers this request itself without looking at the body (a missing credential, say).
    case answers
}
