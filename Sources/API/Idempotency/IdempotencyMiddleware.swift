import Emulation
import Foundation
import HTTPServer
import Service
import Stores

/// Honours `Idempotency-Key` on a tenant's `POST` (Stripe's convention): the first answer is stored under the
/// tenant's key **in the transaction of the write it describes**; a retry of the same request (method, target,
/// body) gets that answer again, byte for byte, with `Idempotent-Replayed: true`, and does nothing else.
///
/// - The handler runs inside ``DeviceService/exclusively(_:)`` and one ``IdempotencyStore/transaction(_:)``: every
///   write the handler makes through the SQLite stores on this thread (device commands, device creation,
///   scenarios) runs in a savepoint of that transaction, and the answer is inserted before it commits. Events are
///   published, and a crash-test fault fires, only after the commit.
/// - Stored: every `2xx` and `4xx` answer of the handler. A `4xx` may describe a write (a refused command commits
///   what the refusal caused), and replaying it is what a retry must see. Never stored: `5xx` (the transaction
///   is rolled back, so nothing the request did remains) and streamed answers.
/// - Refused: a key that is not 1–255 visible ASCII characters (`400 invalidIdempotencyKey`), a key used with
///   another request (`422 idempotencyKeyReused`), a key whose first request is still running (`409
///   idempotencyKeyInFlight`, see ``InFlightKeys``). These answers are not stored.
/// - Admin routes (no tenant) ignore the header: their answers carry secrets (API keys) that are stored only as
///   hashes, and an idempotency table must not keep them in clear.
///
/// A request without the header, or not a `POST`, costs one method comparison and one header lookup.
struct IdempotencyMiddleware: HTTPMiddleware {
    let idempotency: Idempotency
    let devices: DeviceService
    let wallClock: @Sendable () -> Date

    /// A request without a key is none of this middleware's business, so its head alone may settle the answer
    /// further in (no route, a wrong method); one with a key is fingerprinted by its body, which must be read.
    func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict {
        head.method == .post && head.headers[Idempotency.header] != nil ? .needsBody : .passes
    }

    func handle(
        _ request: HTTPRequest, context: HTTPRequestContext,
        next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        guard request.method == .post, let key = request.headers[Idempotency.header],
            let tenant = context[AuthenticatedTenant.self]?.tenant
        else { return try next(request, context) }
        guard Idempotency.isValid(key) else { throw Problems.invalidIdempotencyKey() }
        guard idempotency.inFlight.claim(tenantId: tenant.id, key: key) else { throw Problems.idempotencyKeyInFlight() }
        defer { idempotency.inFlight.release(tenantId: tenant.id, key: key) }

        let fingerprint = Idempotency.fingerprint(of: request, context: context)
        let now = wallClock()
        let expiry = now.addingTimeInterval(-idempotency.lifetime)
        if let stored = try idempotency.store.answer(tenantId: tenant.id, key: key, notBefore: expiry) {
            guard stored.fingerprint == fingerprint else { throw Problems.idempotencyKeyReused() }
            return Self.replay(stored)
        }

        let afterCommit = AfterCommit()
        let outcome = try AfterCommit.$current.withValue(afterCommit) {
            try devices.exclusively {
                do {
                    return try idempotency.store.transaction { () -> Result<HTTPResponse, any Error> in
                        let outcome = Result { try next(request, context) }
                        guard let answer = try Self.answer(outcome, fingerprint: fingerprint, at: now) else {
                            if case .failure(let error) = outcome { throw error }  // a 5xx: roll everything back
                            return outcome  // a stream: not stored
                        }
                        try idempotency.store.save(answer, tenantId: tenant.id, key: key, expiringBefore: expiry)
                        return outcome
                    }
                } catch {
                    devices.forgetCachedDevices()  // commands may have cached what just rolled back
                    throw error
                }
            }
        }
        afterCommit.runAll()
        if let fault = idempotency.exitAfterCommitHeader, request.headers[fault] != nil { TestFault.exitNow() }
        return try outcome.get()
    }

    /// The answer to store for `outcome`, or nil: a `5xx` or an unknown error (rolled back), or a stream.
    private static func answer(
        _ outcome: Result<HTTPResponse, any Error>, fingerprint: StoredAnswer.Fingerprint, at now: Date
    ) throws -> StoredAnswer? {
        let response: HTTPResponse
        switch outcome {
        case .success(let success): response = success
        case .failure(let error):
            // Rendered as the problem middleware and the server will render it.
            guard let problem = Problems.problem(for: error) else { return nil }
            response = problem.response()
        }
        guard (200..<500).contains(response.status.code), case .bytes(let body) = response.body else { return nil }
        return StoredAnswer(
            fingerprint: fingerprint, status: response.status.code,
            headers: response.headers.map { [$0.name, $0.value] }, body: body, createdAt: now)
    }

    /// The stored answer as a response, marked as replayed.
    static func replay(_ stored: StoredAnswer) -> HTTPResponse {
        var headers = HTTPHeaders(stored.headers.compactMap { $0.count == 2 ? (name: $0[0], value: $0[1]) : nil })
        headers[Idempotency.replayedHeader] = "true"
        return HTTPResponse(status: HTTPStatus(code: stored.status), headers: headers, body: .bytes(stored.body))
    }
}
