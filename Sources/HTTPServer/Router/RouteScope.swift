/// A ``RouteGroup`` flattened for the responder: its whole prefix and every middleware around its routes, the
/// router's first.
struct RouteScope: Sendable {
    /// The whole prefix's bytes; empty for the router's own routes, which covers every path.
    let prefix: [UInt8]
    let middlewares: [any HTTPMiddleware]

    /// Whether `path` (percent-encoded, without the query) lies under the prefix: it is the prefix, or the
    /// prefix followed by `/`.
    func covers(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        guard path.count >= prefix.count else { return false }
        for index in prefix.indices where prefix[index] != path[index] { return false }
        return path.count == prefix.count || path[prefix.count] == UInt8(ascii: "/")
    }

    /// The scope of the group with the longest prefix `path` lies under, among `scopes`; the router's own (index
    /// 0) when no group's.
    static func owner(of path: UnsafeBufferPointer<UInt8>, in scopes: [RouteScope]) -> Int {
        var owner = 0
        for index in scopes.indices.dropFirst()
        where scopes[index].prefix.count > scopes[owner].prefix.count && scopes[index].covers(path) {
            owner = index
        }
        return owner
    }

    /// Every group of `root` (itself first, at index 0) with its middleware, and every route with the index of
    /// the group it was registered in, in registration order.
    static func flatten(_ root: RouteGroup) -> (scopes: [RouteScope], routes: [(route: RouteGroup.Route, scope: Int)]) {
        var scopes: [RouteScope] = []
        var routes: [(route: RouteGroup.Route, scope: Int)] = []
        func visit(_ group: RouteGroup, around: [any HTTPMiddleware]) {
            let middlewares = around + group.middlewares
            let scope = scopes.count
            scopes.append(RouteScope(prefix: Array(group.prefix.utf8), middlewares: middlewares))
            for item in group.items {
                switch item {
                case .route(let route): routes.append((route: route, scope: scope))
                case .group(let inner): visit(inner, around: middlewares)
                }
            }
        }
        visit(root, around: [])
        return (scopes, routes)
    }
}
