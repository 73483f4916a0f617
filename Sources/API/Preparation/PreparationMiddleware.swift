import HTTPServer
import Service

/// Runs a route's ``RoutePreparation`` before the middleware inside it (the idempotency middleware's gate and
/// transaction, the handler's writes), on the ``HeavyWorkPool`` under the authenticated tenant, and hands the
/// outcome to the handler in the context (``PreparedRequest``).
///
/// A tenant past its share of the pool (``HeavyWorkBusy``) is answered `429` with `Retry-After` here, before
/// the idempotency middleware: nothing was done, so a retry with the same key must run, not replay a refusal.
struct PreparationMiddleware: HTTPMiddleware {
    private let preparations: [String: RoutePreparation]
    /// Where preparations run; nil runs them on the caller's thread.
    let pool: HeavyWorkPool?

    init(_ preparations: [RoutePreparation], pool: HeavyWorkPool?) {
        self.preparations = Dictionary(preparations.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.pool = pool
    }

    /// `.passes`: a request's head tells nothing it would refuse.
    func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict { .passes }

    func handle(
        _ request: HTTPRequest, context: HTTPRequestContext,
        next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        guard let route = context.route, let preparation = preparations["\(request.method.rawValue) \(route)"] else {
            return try next(request, context)
        }
        let (prepare, contentLimit) = (preparation.prepare, preparation.contentLimit)
        // An upload's gzip coding is removed in the job too: inflating is the heaviest part of a gzip bomb (stopped
        // at the route's bound for what the content's first bytes say it is). A body that does not decode is answered here, before the idempotency middleware (nothing was done). So is
        // the body's digest that a key's fingerprint needs: hashing 16 MiB is work of the same weight.
        let job: @Sendable () throws -> (HTTPRequest, String?, Result<any Sendable, any Error>) = {
            var request = request
            let head = request
            try request.decodeContentCoding { contentLimit(head, $0) }
            let (digest, outcome) = (BodyDigest.ifKeyed(request), Result { try prepare(request) })
            // The handler takes the outcome, not the body: the body's pages are freed here, at the pool's priority.
            request.discardBody()
            return (request, digest, outcome)
        }
        let (decoded, digest, outcome) = if let pool, let tenant = context[AuthenticatedTenant.self]?.tenant {
            try pool.run(tenant: tenant.id, job)
        } else {
            try job()
        }
        var context = context
        context[PreparedRequest.self] = outcome
        context[BodyDigest.self] = digest
        return try next(decoded, context)
    }
}
