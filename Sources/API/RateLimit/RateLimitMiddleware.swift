import HTTPServer
import Service

/// Limits each tenant's requests with its token bucket (see ``RateLimiter``). It runs in the tenant routes'
/// group, after authentication: admin requests and open routes (`/healthz`, the dashboard) are in other groups,
/// and refused credentials (`401`) are answered before it, so none of them touches a bucket. Past the limit
/// the answer is `429 rateLimited` with `Retry-After`, `RateLimit-Policy` and `RateLimit`
/// (draft-ietf-httpapi-ratelimit-headers-11), made from bytes rendered once: a flood of refusals costs a table
/// lookup and a write, not a JSON encoding.
///
/// A limited tenant cannot make the server read its bodies: `judgeHead` refuses from the head, before the
/// body is read (the connection is then closed, the body unread).
///
/// **Refusals are held** until the client may retry, up to the limiter's `maximumHold` (one second): the answer
/// waits on a timer of the connection's loop (``HTTPResponse/delay``), and its `Retry-After` and `RateLimit`'s `t`
/// count the wait that is left from when it is sent (`0` when the hold covered it). A client that honours
/// `Retry-After` waits no longer than it would have; a client that asks again at once, as a flood does, is
/// answered once per hold on each connection instead of as fast as the server can refuse: measured, one tenant
/// flooding at 64 connections was refused 30,000 times a second, its refusals the largest cost of the server
/// for the other tenants. An answer given from the head (connection closed) is not held.
///
/// **Requests a little over the rate are paced** rather than refused (the limiter's `maximumDelay`, a quarter of a
/// second by default): such a request takes the token that comes next and is answered when it comes. A client
/// asking faster than its rate on many connections is thus served at its rate, one request after another, rather
/// than in bursts at the full speed of the server, then refused: measured, a tenant flooding reads at 64 connections
/// took both cores for a tenth of each second, and another tenant's requests in that tenth waited milliseconds. Only
/// past the delay is a request refused.
struct RateLimitMiddleware: HTTPMiddleware {
    let limiter: RateLimiter
    let credentials: Credentials
    /// `RateLimit-Policy`, rendered once.
    let policyField: String
    /// The `429` body, rendered once: its detail names the policy; the seconds to wait are in the headers.
    let problemBody: [UInt8]
    /// Counts each refusal (`bgemu_rate_limited_total`); nil without metrics.
    let metrics: PrometheusMetrics?

    init(limiter: RateLimiter, credentials: Credentials, metrics: PrometheusMetrics? = nil) {
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
        guard let tenant = context[AuthenticatedTenant.self]?.tenant else { return try next(request, context) }
        // An answer made from the head alone, the body unread: when this middleware judged that head refused,
        // it stays refused, even if a token came back in the microseconds since.
        let bodyUnread = Self.bodyUnread(request)
        if bodyUnread, limiter.refusedRecently(tenant.id) {
            return refusal(retryAfter: limiter.refuse(tenant.id), held: false)
        }
        switch limiter.admit(tenant.id) {
        // Answers that pass carry no fields: the draft leaves it to the server (§6.2), and ~90 bytes on every
        // answer buy a client nothing that the 429's own fields do not tell it.
        case .allowed: return try next(request, context)
        case .delayed(let wait):
            metrics?.ratePaced()
            var response: HTTPResponse
            do {
                response = try next(request, context)
            } catch {
                // A paced request that fails waits for its token too: a flood of failing requests is paced as
                // one of succeeding ones is. The problem is made here, as the problem middleware would make it.
                guard let problem = Problems.problem(for: error) ?? (error as? any HTTPResponseError) else { throw error }
                response = problem.response()
            }
            response.delay = max(response.delay, wait)
            return response
        case .refused(let retryAfter): return refusal(retryAfter: retryAfter, held: !bodyUnread)
        }
    }

    /// Refuses a limited tenant's request from its head; anyone else's is judged further in.
    func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict {
        guard let token = AuthMiddleware.token(in: head), let tenant = try? credentials.tenant(forKey: token)
        else { return .passes }
        return limiter.wouldRefuse(tenant.id) ? .answers : .passes
    }

    /// The `429`, its problem body rendered once at start; `held`: sent after the part of `retryAfter` seconds
    /// the limiter's `maximumHold` allows, its fields counting what is left from then.
    func refusal(retryAfter: Int, held: Bool) -> HTTPResponse {
        metrics?.rateLimited()
        let hold = held ? min(limiter.maximumHold, .seconds(retryAfter)) : .zero
        let left = retryAfter - Int(hold.components.seconds)
        let headers: HTTPHeaders = [
            "Retry-After": String(left),
            "RateLimit-Policy": policyField,
            "RateLimit": RateLimitFields.limit(remaining: 0, reset: left),
        ]
        var response = HTTPResponse(
            status: .tooManyRequests, contentType: "application/problem+json", bytes: problemBody, headers: headers)
        response.delay = hold
        return response
    }

    /// Whether `request` announces a body it does not carry: the server is answering from its head.
    static func bodyUnread(_ request: HTTPRequest) -> Bool {
        guard request.bodyCount == 0 else { return false }
        if request.headers["Transfer-Encoding"] != nil { return true }
        guard let length = request.headers["Content-Length"] else { return false }
        return length != "0"
    }
}
