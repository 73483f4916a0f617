import HTTPServer

/// Limits each tenant's requests with its token bucket (see ``RateLimiter``). It runs in the tenant routes'
/// group, after authentication: admin requests and open routes (`/healthz`, the dashboard) are in other groups,
/// and refused credentials (`401`) are answered before it, so none of them touches a bucket. Past the limit
/// the answer is `429 rateLimited` with `Retry-After`, `RateLimit-Policy` and `RateLimit`
/// (draft-ietf-httpapi-ratelimit-headers-11), made from bytes rendered once: a flood of refusals costs a table
/// lookup and a write, not a JSON encoding.
///
/// A limited tenant cannot make the server read its bodies: `judgeHead` refuses from the head, before the
/// body is read (the connection is then closed, the body unread).
struct RateLimitMiddleware: HTTPMiddleware {
    let limiter: RateLimiter
    let credentials: Credentials
    /// `RateLimit-Policy`, rendered once.
    let policyField: String
    /// The `429` body, rendered once: its detail names the policy; the seconds to wait are in the headers.
    let problemBody: [UInt8]
    /// Counts each refusal (`bgemu_rate_limited_total`); nil without metrics.
    let metrics: ServiceMetrics?

    init(limiter: RateLimiter, credentials: Credentials, metrics: ServiceMetrics? = nil) {
        self.limiter = limiter
        self.credentials = credentials
        self.metrics = metrics
        policyField = RateLimitFields.policy(limiter.policy)
        problemBody = Problems.rateLimited(limiter.policy).body()
    }

    func handle(
        _ request: HTTPRequest, context: HTTPRequestContext,
        next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        guard let tenant = context[AuthenticatedTenant.self] else { return try next(request, context) }
        // An answer made from the head alone, the body unread: when this middleware judged that head refused,
        // it stays refused, even if a token came back in the microseconds since.
        if Self.bodyUnread(request), limiter.refusedRecently(tenant.id) {
            return refusal(retryAfter: limiter.refuse(tenant.id))
        }
        switch limiter.admit(tenant.id) {
        // Answers that pass carry no fields: the draft leaves it to the server (§6.2), and ~90 bytes on every
        // answer buy a client nothing that the 429's own fields do not tell it.
        case .allowed: return try next(request, context)
        case .refused(let retryAfter): return refusal(retryAfter: retryAfter)
        }
    }

    /// Refuses a limited tenant's request from its head; anyone else's is judged further in.
    func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict {
        guard let token = AuthMiddleware.token(in: head), let tenant = try? credentials.tenant(forKey: token)
        else { return .passes }
        return limiter.wouldRefuse(tenant.id) ? .answers : .passes
    }

    /// The `429`, its problem body rendered once at start.
    func refusal(retryAfter: Int) -> HTTPResponse {
        metrics?.rateLimited()
        let headers: HTTPHeaders = [
            "Retry-After": String(retryAfter),
            "RateLimit-Policy": policyField,
            "RateLimit": RateLimitFields.limit(remaining: 0, reset: retryAfter),
        ]
        return HTTPResponse(status: .tooManyRequests, contentType: "application/problem+json", bytes: problemBody, headers: headers)
    }

    /// Whether `request` announces a body it does not carry: the server is answering from its head.
    static func bodyUnread(_ request: HTTPRequest) -> Bool {
        guard request.body.isEmpty else { return false }
        if request.headers["Transfer-Encoding"] != nil { return true }
        guard let length = request.headers["Content-Length"] else { return false }
        return length != "0"
    }
}
