/// Routes under one path prefix, with the middleware that runs around them and no others: a group writes the
/// shape of an API where its routes are (`/v1` behind a tenant's key, `/v1/admin` behind the admin token, open
/// routes behind nothing) instead of each middleware checking paths.
///
/// ``Router/group(_:_:)`` (or ``group(_:_:)`` on a group, for a group inside it) hands a new group to a closure
/// that adds its middleware and routes:
///
/// ```swift
/// router.group("/v1") { v1 in
///     v1.add(middleware: Authentication())
///     v1.get("/devices/{deviceId}") { request, context in … }   // the route /v1/devices/{deviceId}
/// }
/// ```
///
/// - Patterns are written after the prefix; `/` alone is the prefix itself. What is reported (`context.route`,
///   ``Router/routes``, metrics) is the whole pattern.
/// - Around a route run the router's middleware (outermost), then each enclosing group's, then the group's own,
///   each in the order added, whether added before or after the routes.
/// - A request that matches no route (a `404`, the fallback, an undecodable or empty parameter) runs through the
///   middleware of the group with the longest prefix its path lies under, segment by segment on the
///   percent-encoded path: a `404` under `/v1` is refused without a key as a route there would be. A `405` or an
///   `OPTIONS` answer runs through the group of the path's routes.
/// - So that a path's middleware follows from its prefix alone, a route belongs in the group with the longest
///   prefix its pattern lies under (`/v1/admin/tenants` in `/v1/admin`, not in `/v1` nor on the router), and a
///   prefix is declared once. Groups with nested prefixes may be siblings (`/v1` and `/v1/admin`, the second
///   without the first's middleware) or nested (`/admin` inside `/v1`, with both groups' middleware).
/// - Breaking one of these rules, or a malformed prefix or pattern, is a programmer error and stops the program
///   (when the group is closed, or, for a route outside its group, when the responder is built).
public struct RouteGroup: RouteRegistrar, Sendable {
    /// One registered route, its pattern whole.
    struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: Router.Handler
    }

    /// A route or a group inside this group, in registration order.
    enum Item: Sendable {
        case route(Route)
        case group(RouteGroup)
    }

    /// The whole prefix (`/v1/admin`), percent-encoded as on the wire; empty for the router's own routes.
    public let prefix: String
    /// This group's own middleware, outermost first.
    private(set) var middlewares: [any HTTPMiddleware] = []
    private(set) var items: [Item] = []
    /// `METHOD shape` of every route here and in the groups inside, to refuse a second handler for the same paths.
    private var routeKeys: Set<String> = []
    /// The prefix of every group inside this one, to refuse a prefix declared twice.
    private var groupPrefixes: Set<String> = []

    /// The router's own routes: no prefix.
    init() {
        prefix = ""
    }

    /// A group for `prefix` (whole), which must be literal segments.
    private init(prefix: String) {
        let parsed: RoutePattern
        do {
            parsed = try RoutePattern(prefix)
        } catch {
            preconditionFailure("invalid group prefix: \(error.description)")
        }
        precondition(!parsed.segments.isEmpty, "a group's prefix has at least one segment (\"/\" is the router's)")
        for segment in parsed.segments {
            if case .parameter(let name) = segment {
                preconditionFailure("a group's prefix is literal segments; \(prefix) has {\(name)}")
            }
        }
        self.prefix = prefix
    }

    /// Adds `middleware` around this group's routes and the groups inside it. Middleware runs in the order added,
    /// the first added outermost, inside the router's and any enclosing group's.
    public mutating func add(middleware: any HTTPMiddleware) {
        middlewares.append(middleware)
    }

    /// Registers `handler` for `method` on the prefix followed by `pattern` (`/` alone: the prefix itself).
    ///
    /// A malformed pattern, or a second handler for the same method and the same paths (`/a/{x}` and `/a/{y}`
    /// are the same paths) anywhere in this group, is a programmer error and stops the program.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, use handler: @escaping Router.Handler) {
        precondition(pattern.hasPrefix("/"), "route pattern \"\(pattern)\" must start with /")
        let whole = pattern == "/" && !prefix.isEmpty ? prefix : prefix + pattern
        let parsed: RoutePattern
        do {
            parsed = try RoutePattern(whole)
        } catch {
            preconditionFailure(error.description)
        }
        let key = "\(method.rawValue) \(parsed.shape)"
        precondition(routeKeys.insert(key).inserted, "route \(method) \(whole) is registered twice")
        items.append(.route(Route(method: method, pattern: parsed, handler: handler)))
    }

    /// Adds a group for the prefix followed by `prefix` (such as `/v1`: literal segments, no trailing `/`), with
    /// this group's middleware around its own; `build` adds its middleware and routes.
    public mutating func group(_ prefix: String, _ build: (inout RouteGroup) -> Void) {
        precondition(prefix.hasPrefix("/"), "group prefix \"\(prefix)\" must start with /")
        var group = RouteGroup(prefix: self.prefix + prefix)
        build(&group)
        for key in group.routeKeys {
            precondition(routeKeys.insert(key).inserted, "route \(key) is registered twice")
        }
        for inner in group.groupPrefixes.union([group.prefix]) {
            precondition(groupPrefixes.insert(inner).inserted, "group \(inner) is declared twice")
        }
        items.append(.group(group))
    }
}
