/// A registered handler, wrapped in the middleware chain, with what it needs to bind its parameters.
/// A class so that the lookup hands out one reference instead of copying every field.
final class RouteEndpoint: Sendable {
    /// The pattern as registered, reported as `HTTPRequestContext.route`.
    let pattern: String
    /// The segments (by 0-based depth) that bind parameters, in path order.
    let parameterSlots: [(depth: Int, name: String)]
    let responder: any HTTPResponder
    /// `400` for a parameter that does not decode, wrapped in the same middleware chain as `responder`.
    let invalidPath: any HTTPResponder

    init(
        pattern: String, parameterSlots: [(depth: Int, name: String)], responder: any HTTPResponder,
        invalidPath: any HTTPResponder
    ) {
        self.pattern = pattern
        self.parameterSlots = parameterSlots
        self.responder = responder
        self.invalidPath = invalidPath
    }

    /// Percent-decodes the parameter segments of `path` into `parameters`; false when one does not decode
    /// (RFC 3986 §2.1). `path` is one `RouterTrie.match` accepted for this endpoint's shape.
    func bind(_ path: UnsafeBufferPointer<UInt8>, into parameters: inout HTTPParameters) -> Bool {
        var slot = 0
        var depth = 0
        var start = 1
        while slot < parameterSlots.count, start <= path.count {
            var end = start
            while end < path.count, path[end] != UInt8(ascii: "/") { end += 1 }
            if parameterSlots[slot].depth == depth {
                guard let value = Self.decode(UnsafeBufferPointer(rebasing: path[start..<end])) else { return false }
                parameters[parameterSlots[slot].name] = value
                slot += 1
            }
            depth += 1
            start = end + 1
        }
        return slot == parameterSlots.count
    }

    private static func decode(_ segment: UnsafeBufferPointer<UInt8>) -> String? {
        guard let raw = String(validating: segment, as: UTF8.self) else { return nil }
        return segment.contains(UInt8(ascii: "%")) ? PercentDecoding.decode(raw) : raw
    }
}

/// What the router knows about one matched path: its endpoints by method and its own answers.
/// A class for the same reason as `RouteEndpoint`.
final class RouteNode: Sendable {
    /// The first pattern registered for this path, reported as the route of `405` and `OPTIONS` answers.
    let pattern: String
    let endpoints: [(method: HTTPMethod, endpoint: RouteEndpoint)]
    /// `405`, wrapped in the middleware chain of the path's group.
    let methodNotAllowed: any HTTPResponder
    /// `204` with `Allow`, wrapped in the middleware chain of the path's group.
    let options: any HTTPResponder

    init(
        pattern: String, endpoints: [(method: HTTPMethod, endpoint: RouteEndpoint)],
        methodNotAllowed: any HTTPResponder, options: any HTTPResponder
    ) {
        self.pattern = pattern
        self.endpoints = endpoints
        self.methodNotAllowed = methodNotAllowed
        self.options = options
    }

    func endpoint(for method: HTTPMethod) -> RouteEndpoint? {
        for entry in endpoints where entry.method == method { return entry.endpoint }
        return nil
    }
}
