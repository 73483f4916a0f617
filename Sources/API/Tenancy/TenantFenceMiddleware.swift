import HTTPServer
import Service

/// Refuses the writes of a tenant fenced for a move (issue 30) with `503 tenantFenced` and `Retry-After`, and
/// counts every other write of a tenant while it runs, so that a fence can wait for the writes in flight
/// (``TenantFences``). Reads (`GET`, `HEAD`), event streams included, pass untouched: a fenced tenant's data can
/// still be read, and nothing read changes it. Inside the tenant authentication, before the rate limit (a refused
/// write spends no token) and before the idempotency middleware (a refused write stores no answer).
struct TenantFenceMiddleware: HTTPMiddleware {
    let fences: TenantFences
    let credentials: Credentials

    /// The seconds a fenced client is told to wait: a move takes the time of an export and an import.
    static let retryAfter = "2"

    func handle(
        _ request: HTTPRequest, context: HTTPRequestContext,
        next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        switch request.method {
        case .get, .head, .options: return try next(request, context)
        default: break
        }
        let tenantId = try context.tenant().id
        guard fences.enter(tenantId) else { throw Self.fenced() }
        defer { fences.leave(tenantId) }
        return try next(request, context)
    }

    /// A fenced tenant's write is refused from its head, so that its body is not read (and the rate limit, inside,
    /// may judge from the head too); any other request passes to what is inside.
    func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict {
        switch head.method {
        case .get, .head, .options: return .passes
        default: break
        }
        // No fence anywhere (the common case): no second lookup of the key on every write's head.
        guard fences.anyFenced else { return .passes }
        guard let token = AuthMiddleware.token(in: head), let tenant = try? credentials.tenant(forKey: token) else {
            return .passes  // the authentication outside answers it, or judges it with the body
        }
        return fences.isFenced(tenant.id) ? .answers : .passes
    }

    /// `503 tenantFenced`: the tenant is being moved to another shard; nothing was done.
    static func fenced() -> HTTPProblem {
        HTTPProblem(
            status: .serviceUnavailable, code: "tenantFenced",
            detail: "Your tenant is being moved between shards and takes no writes for a moment; nothing was done. "
                + "Retry after the seconds in Retry-After.",
            headers: ["Retry-After": retryAfter])
    }
}
