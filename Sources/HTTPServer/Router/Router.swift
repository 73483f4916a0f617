/// Routes requests to handlers by method and path pattern. A mutable builder: register routes, groups and
/// middleware, then call `buildResponder()` once for the immutable responder the server runs.
///
/// Patterns are `/`-separated literal segments and `{name}` parameter segments
/// (`/v1/devices/{deviceId}/apps/{bundleId}`); a literal beats a parameter at the same depth. Matching runs on
/// the percent-encoded path (RFC 3986 §3.3), so `%2F` inside a segment stays inside that parameter's value.
/// A trailing slash makes a different path (only `/` itself ends in one) and empty segments never match.
/// A handler reads what its pattern bound with `context.parameters.require("name")`.
///
/// Routes that share a prefix and middleware go in a ``RouteGroup`` (``group(_:_:)``); the router's own
/// middleware (``add(middleware:)``) runs around every request, outside any group's.
///
/// Routing happens before the middleware chain runs, so every middleware already sees `context.route` and
/// `context.parameters`; a middleware that rewrites the request does not re-route it.
public struct Router: RouteRegistrar, Sendable {
    /// A route handler. It runs on an event loop thread and must not block for long.
    public typealias Handler = @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse

    /// The router's own routes and middleware, and every group.
    private var root = RouteGroup()

    /// Answers requests whose path matches no route's pattern (static files, say); nil answers `404`.
    /// It runs inside the middleware chain of the group the path lies under, with `context.route` nil.
    public var fallback: (any HTTPResponder)?

    /// Told of every answer, outside the middleware chain, with the route template it was given on (metrics);
    /// its recorders are resolved once per route when the responder is built.
    public var observer: (any HTTPRouteObserver)?

    /// An empty router.
    public init() {}

    /// Adds `middleware` around every request: routed, grouped, and the fallback. Middleware runs in the order
    /// added, the first added outermost, whether added before or after the routes, outside every group's.
    public mutating func add(middleware: any HTTPMiddleware) {
        root.add(middleware: middleware)
    }

    /// Registers `handler` for `method` on `pattern`.
    ///
    /// A malformed pattern, or a second handler for the same method and the same paths (`/a/{x}` and `/a/{y}`
    /// are the same paths), is a programmer error and stops the program; so is a pattern under a group's prefix
    /// (it belongs in that group), when the responder is built.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, use handler: @escaping Handler) {
        root.on(method, pattern, use: handler)
    }

    /// Adds a group of routes under `prefix` (such as `/v1`: literal segments, no trailing `/`) with middleware
    /// of their own; `build` adds them (see ``RouteGroup``).
    public mutating func group(_ prefix: String, _ build: (inout RouteGroup) -> Void) {
        root.group(prefix, build)
    }

    /// Every registered route in registration order, patterns whole as written. The implicit `HEAD` and
    /// `OPTIONS` answers are not listed.
    public var routes: [(method: HTTPMethod, pattern: String)] {
        RouteScope.flatten(root).routes.map { (method: $0.route.method, pattern: $0.route.pattern.text) }
    }

    /// The immutable, thread-safe responder for the routes, groups, middleware and fallback registered so far.
    /// Each group's middleware chain is composed here, once per route, not per request.
    public func buildResponder() -> any HTTPResponder {
        let (scopes, routes) = RouteScope.flatten(root)
        for (route, scope) in routes {
            var text = route.pattern.text
            let owner = text.withUTF8 { RouteScope.owner(of: $0, in: scopes) }
            precondition(
                owner == scope,
                "route \(route.method) \(text) lies under group \(String(decoding: scopes[owner].prefix, as: UTF8.self)) "
                    + "and belongs in it")
        }
        let chains = scopes.map { MiddlewareChain(middlewares: $0.middlewares) }
        let unmatchedRecorder = observer?.recorder(forRoute: nil)
        // `responder` in the chain of `scope`, inside the observer's recorder for `route` when there is an observer.
        func wrap(_ responder: any HTTPResponder, scope: Int, route: String?) -> any HTTPResponder {
            let wrapped = chains[scope].wrap(responder)
            guard let observer, let unmatchedRecorder else { return wrapped }
            return ObservedResponder(recorder: route.map(observer.recorder(forRoute:)) ?? unmatchedRecorder, next: wrapped)
        }
        let invalidPaths = scopes.indices.map { wrap(RouterAnswers.invalidPath, scope: $0, route: nil) }
        var trie = RouterTrie<RouteNode>()

        // Group registrations by the node they end on, keeping registration order.
        var order: [Int] = []
        var byNode: [Int: [(route: RouteGroup.Route, scope: Int)]] = [:]
        for registration in routes {
            let index = trie.insert(registration.route.pattern.segments)
            if byNode[index] == nil { order.append(index) }
            byNode[index, default: []].append(registration)
        }

        for index in order {
            // One shape, so one group: the owner of a pattern follows from its literal segments.
            let group = byNode[index] ?? []
            let (first, scope) = group[0]
            let allow = RouterAnswers.allowValue(for: group.map(\.route.method))
            let endpoints = group.map { route, scope in
                let endpoint = RouteEndpoint(
                    pattern: route.pattern.text,
                    parameterSlots: route.pattern.parameterSlots,
                    responder: wrap(HTTPClosureResponder(route.handler), scope: scope, route: route.pattern.text),
                    invalidPath: invalidPaths[scope])
                return (method: route.method, endpoint: endpoint)
            }
            let node = RouteNode(
                pattern: first.pattern.text,
                endpoints: endpoints,
                methodNotAllowed: wrap(RouterAnswers.methodNotAllowed(allow: allow), scope: scope, route: first.pattern.text),
                options: wrap(RouterAnswers.options(allow: allow), scope: scope, route: first.pattern.text))
            trie.setValue(node, at: index)
        }

        let unmatched = scopes.indices.map { scope in
            RouterResponder.Unmatched(
                notFound: wrap(fallback ?? RouterAnswers.notFound, scope: scope, route: nil),
                emptySegment: wrap(RouterResponder.emptySegment(trie), scope: scope, route: nil))
        }
        return RouterResponder(trie: trie, scopes: scopes, unmatched: unmatched)
    }
}
