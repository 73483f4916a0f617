/// Middleware composed around a responder once, when the router is built, so a request pays one call per
/// middleware and nothing else.
struct MiddlewareChain: Sendable {
    /// Outermost first: the first middleware sees the request first and the response last.
    let middlewares: [any HTTPMiddleware]

    /// `responder` wrapped in every middleware.
    func wrap(_ responder: any HTTPResponder) -> any HTTPResponder {
        middlewares.reversed().reduce(responder) { next, middleware in
            MiddlewareResponder(middleware: middleware, next: next)
        }
    }
}

/// One middleware and everything inside it.
struct MiddlewareResponder: HTTPResponder {
    let middleware: any HTTPMiddleware
    let next: any HTTPResponder

    func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPResponse {
        try middleware.handle(request, context: context) { request, context in
            try next.respond(to: request, context: context)
        }
    }

    func answersWithoutBody(_ head: HTTPRequest, context: HTTPRequestContext) -> Bool {
        switch middleware.judgeHead(head, context: context) {
        case .answers: true
        case .passes: next.answersWithoutBody(head, context: context)
        case .needsBody: false
        }
    }
}
