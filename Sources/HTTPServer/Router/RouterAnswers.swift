/// The answers the router gives itself when no handler applies; each is wrapped in the middleware chain like a
/// handler, so access logs and response headers cover them too.
enum RouterAnswers {
    /// No route's pattern matches the path: `404` (RFC 9110 §15.5.5).
    static let notFound: any HTTPResponder = RouterAnswer { request, _ in
        throw HTTPProblem(
            status: .notFound, code: "notFound", detail: "No resource matches \(request.method) \(request.path).")
    }

    /// A parameter segment is not valid percent-encoding of UTF-8 (RFC 3986 §2.1): `400`.
    static let invalidPath: any HTTPResponder = RouterAnswer { _, _ in
        throw HTTPProblem(
            status: .badRequest, code: "invalidPath",
            detail: "A path segment is not valid percent-encoded UTF-8.")
    }

    /// The path is known but not with this method: `405` with the `Allow` field (RFC 9110 §15.5.6, §10.2.1).
    static func methodNotAllowed(allow: String) -> any HTTPResponder {
        RouterAnswer { request, _ in
            throw HTTPProblem(
                status: .methodNotAllowed, code: "methodNotAllowed",
                detail: "\(request.method) is not allowed here; allowed: \(allow).",
                headers: ["Allow": allow])
        }
    }

    /// `OPTIONS` on a known path with no `OPTIONS` route: `204` with `Allow` (RFC 9110 §9.3.7).
    static func options(allow: String) -> any HTTPResponder {
        RouterAnswer { _, _ in HTTPResponse(status: .noContent, headers: ["Allow": allow]) }
    }

    /// The `Allow` value for a path whose routes have `methods`: `HEAD` whenever `GET` (the router answers it),
    /// `OPTIONS` always (ditto), sorted and comma-separated.
    static func allowValue(for methods: [HTTPMethod]) -> String {
        var set = Set(methods)
        if set.contains(.get) { set.insert(.head) }
        set.insert(.options)
        return set.map(\.rawValue).sorted().joined(separator: ", ")
    }
}

/// One of the router's own answers: it never reads the body, so it is given before the body arrives.
struct RouterAnswer: HTTPResponder {
    let closure: @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse

    init(_ closure: @escaping @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse) {
        self.closure = closure
    }

    func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPResponse {
        try closure(request, context)
    }

    func answersWithoutBody(_ head: HTTPRequest, context: HTTPRequestContext) -> Bool { true }
}
