/// Something that answers requests. Handlers run on the event loop thread that read the request, so they must
/// not block for long: work in memory and short SQLite transactions, nothing that waits on the network.
public protocol HTTPResponder: Sendable {
    func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPResponse
}

/// A responder made from a closure.
public struct HTTPClosureResponder: HTTPResponder {
    public let closure: @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    public init(_ closure: @escaping @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse) {
        self.closure = closure
    }
    public func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPResponse {
        try closure(request, context)
    }
}

/// A step around the handler: it may change the request or context, answer itself, or call `next`.
public protocol HTTPMiddleware: Sendable {
    func handle(
        _ request: HTTPRequest, context: HTTPRequestContext,
        next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) throws -> HTTPResponse
}
