/// The immutable responder `Router.buildResponder()` makes: a trie lookup, then one pre-built chain call.
struct RouterResponder: HTTPResponder {
    /// The answers for a path no route takes, in the middleware chain of one group.
    struct Unmatched: Sendable {
        /// The fallback (or `404`).
        let notFound: any HTTPResponder
        /// `404` naming the parameter an empty path segment leaves out.
        let emptySegment: any HTTPResponder
    }

    let trie: RouterTrie<RouteNode>
    /// Every group, the router's own first, to find the one an unmatched path lies under.
    let scopes: [RouteScope]
    /// The unmatched answers of each group of `scopes`, by the same index.
    let unmatched: [Unmatched]

    func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPResponse {
        var context = context
        var target = request.target
        let responder = target.withUTF8 { utf8 in
            let pathEnd = utf8.firstIndex(of: UInt8(ascii: "?")) ?? utf8.count
            return resolve(request.method, path: UnsafeBufferPointer(rebasing: utf8[..<pathEnd]), context: &context)
        }
        return try responder.respond(to: request, context: context)
    }

    /// Asks the responder the route resolves to (through its middleware chain).
    func answersWithoutBody(_ head: HTTPRequest, context: HTTPRequestContext) -> Bool {
        var context = context
        var target = head.target
        let responder = target.withUTF8 { utf8 in
            let pathEnd = utf8.firstIndex(of: UInt8(ascii: "?")) ?? utf8.count
            return resolve(head.method, path: UnsafeBufferPointer(rebasing: utf8[..<pathEnd]), context: &context)
        }
        return responder.answersWithoutBody(head, context: context)
    }

    /// Picks the responder for `method` on `path` and records the route and parameters in `context`.
    private func resolve(
        _ method: HTTPMethod, path: UnsafeBufferPointer<UInt8>, context: inout HTTPRequestContext
    ) -> any HTTPResponder {
        guard let node = trie.match(path) else {
            let answers = unmatched[RouteScope.owner(of: path, in: scopes)]
            // Only a failed match pays for this: is it a route with a parameter left empty?
            let text = String(decoding: path, as: UTF8.self)
            return Self.missingParameters(text, in: trie) == nil ? answers.notFound : answers.emptySegment
        }
        // A HEAD request is a GET whose body the server drops (RFC 9110 §9.3.2).
        if let endpoint = node.endpoint(for: method) ?? (method == .head ? node.endpoint(for: .get) : nil) {
            context.route = endpoint.pattern
            guard endpoint.bind(path, into: &context.parameters) else { return endpoint.invalidPath }
            return endpoint.responder
        }
        context.route = node.pattern
        return method == .options ? node.options : node.methodNotAllowed
    }
}
