/// Routes requests to handlers by method and path pattern. A mutable builder: register routes and middleware,
/// then call `buildResponder()` once for the immutable responder the server runs.
///
/// Patterns are `/`-separated literal segments and `{name}` parameter segments
/// (`/v1/devices/{deviceId}/apps/{bundleId}`); a literal beats a parameter at the same depth. Matching runs on
/// the percent-encoded path (RFC 3986 §3.3), so `%2F` inside a segment stays inside that parameter's value.
/// A trailing slash makes a different path (only `/` itself ends in one) and empty segments never match.
///
/// Routing happens before the middleware chain runs, so every middleware already sees `context.route` and
/// `context.parameters`; a middleware that rewrites the request does not re-route it.
public struct Router: Sendable {
    /// A route handler. It runs on an event loop thread and must not block for long.
    public typealias Handler = @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse

    private struct Registration: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: Handler
    }

    private var middlewares: [any HTTPMiddleware] = []
    private var registrations: [Registration] = []
    /// `METHOD shape` of every registration, to refuse a second handler for the same method and paths.
    private var registeredKeys: Set<String> = []

    /// Answers requests whose path matches no route's pattern (static files, say); nil answers `404`.
    /// It runs inside the middleware chain, with `context.route` nil.
    public var fallback: (any HTTPResponder)?

    /// Told of every answer, outside the middleware chain, with the route template it was given on (metrics);
    /// its recorders are resolved once per route when the responder is built.
    public var observer: (any HTTPRouteObserver)?

    /// An empty router.
    public init() {}

    /// Adds `middleware` around every routed request and the fallback. Middleware runs in the order added,
    /// the first added outermost, whether added before or after the routes.
    public mutating func add(middleware: any HTTPMiddleware) {
        middlewares.append(middleware)
    }

    /// Registers `handler` for `method` on `pattern`.
    ///
    /// A malformed pattern, or a second handler for the same method and the same paths (`/a/{x}` and `/a/{y}`
    /// are the same paths), is a programmer error and stops the program.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, use handler: @escaping Handler) {
        let parsed: RoutePattern
        do {
            parsed = try RoutePattern(pattern)
        } catch {
            preconditionFailure(error.description)
        }
        let key = "\(method.rawValue) \(parsed.shape)"
        precondition(registeredKeys.insert(key).inserted, "route \(method) \(pattern) is registered twice")
        registrations.append(Registration(method: method, pattern: parsed, handler: handler))
    }

    /// Registers `handler` for `GET` (and so `HEAD`) on `pattern`.
    public mutating func get(_ pattern: String, use handler: @escaping Handler) { on(.get, pattern, use: handler) }
    /// Registers `handler` for `POST` on `pattern`.
    public mutating func post(_ pattern: String, use handler: @escaping Handler) { on(.post, pattern, use: handler) }
    /// Registers `handler` for `PUT` on `pattern`.
    public mutating func put(_ pattern: String, use handler: @escaping Handler) { on(.put, pattern, use: handler) }
    /// Registers `handler` for `PATCH` on `pattern`.
    public mutating func patch(_ pattern: String, use handler: @escaping Handler) { on(.patch, pattern, use: handler) }
    /// Registers `handler` for `DELETE` on `pattern`.
    public mutating func delete(_ pattern: String, use handler: @escaping Handler) {
        on(.delete, pattern, use: handler)
    }

    /// Every registered route in registration order, patterns as written. The implicit `HEAD` and `OPTIONS`
    /// answers are not listed.
    public var routes: [(method: HTTPMethod, pattern: String)] {
        registrations.map { (method: $0.method, pattern: $0.pattern.text) }
    }

    /// The immutable, thread-safe responder for the routes, middleware and fallback registered so far.
    /// The middleware chain is composed here, once per route, not per request.
    public func buildResponder() -> any HTTPResponder {
        let chain = MiddlewareChain(middlewares: middlewares)
        // `responder` in the chain, inside the observer's recorder for `route` when there is an observer.
        func wrap(_ responder: any HTTPResponder, route: String?) -> any HTTPResponder {
            let wrapped = chain.wrap(responder)
            guard let observer else { return wrapped }
            return ObservedResponder(recorder: observer.recorder(forRoute: route), next: wrapped)
        }
        var trie = RouterTrie<RouteNode>()

        // Group registrations by the node they end on, keeping registration order.
        var order: [Int] = []
        var byNode: [Int: [Registration]] = [:]
        for registration in registrations {
            let index = trie.insert(registration.pattern.segments)
            if byNode[index] == nil { order.append(index) }
            byNode[index, default: []].append(registration)
        }

        for index in order {
            let group = byNode[index] ?? []
            let allow = RouterAnswers.allowValue(for: group.map(\.method))
            let endpoints = group.map { registration in
                let endpoint = RouteEndpoint(
                    pattern: registration.pattern.text,
                    parameterSlots: registration.pattern.parameterSlots,
                    responder: wrap(HTTPClosureResponder(registration.handler), route: registration.pattern.text))
                return (method: registration.method, endpoint: endpoint)
            }
            let node = RouteNode(
                pattern: group[0].pattern.text,
                endpoints: endpoints,
                methodNotAllowed: wrap(RouterAnswers.methodNotAllowed(allow: allow), route: group[0].pattern.text),
                options: wrap(RouterAnswers.options(allow: allow), route: group[0].pattern.text))
            trie.setValue(node, at: index)
        }

        return RouterResponder(
            trie: trie,
            unmatched: wrap(fallback ?? RouterAnswers.notFound, route: nil),
            invalidPath: wrap(RouterAnswers.invalidPath, route: nil),
            emptySegment: wrap(RouterResponder.emptySegment(trie), route: nil))
    }
}
