/// Adds fixed header fields to every response, such as `X-Content-Type-Options: nosniff`
/// (WHATWG Fetch Standard, "`X-Content-Type-Options` header") or `Referrer-Policy: no-referrer`.
///
/// A field the response already has is left as the handler set it. Thrown `HTTPProblem`s get the fields too
/// (they are rethrown with them added); other thrown errors are rendered by the server without them.
public struct HeadersMiddleware: HTTPMiddleware {
    /// The fields added.
    public let headers: HTTPHeaders

    /// A middleware adding `headers`.
    public init(_ headers: HTTPHeaders) {
        self.headers = headers
    }

    /// `.passes`: the fields it adds do not depend on the body.
    public func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict { .passes }

    /// Calls `next`, then adds the fields it lacks.
    public func handle(
        _ request: HTTPRequest, context: HTTPRequestContext,
        next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        do {
            var response = try next(request, context)
            addMissing(to: &response.headers)
            return response
        } catch var problem as HTTPProblem {
            addMissing(to: &problem.headers)
            throw problem
        }
    }

    private func addMissing(to target: inout HTTPHeaders) {
        for field in headers where !target.contains(field.name) {
            target.add(field.name, field.value)
        }
    }
}
