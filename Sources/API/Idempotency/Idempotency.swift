import Emulation
import Foundation
import HTTPServer
import Service
import Stores

/// How the service honours `Idempotency-Key` on `POST` (see ``IdempotencyMiddleware``): where answers are kept,
/// for how long, and the requests in flight.
public struct Idempotency: Sendable {
    /// The request header naming the key.
    public static let header = "Idempotency-Key"
    /// The response header set on a replayed answer.
    public static let replayedHeader = "Idempotent-Replayed"
    /// How long an answer is kept, in wall time (Stripe's 24 hours).
    public static let defaultLifetime: TimeInterval = 24 * 60 * 60

    public var store: any IdempotencyStore
    public var lifetime: TimeInterval
    public let inFlight: InFlightKeys
    /// **Test fault**, for the end-to-end test across a crash: when set, a request carrying a header of this name
    /// ends the process (`_exit`) right after its transaction committed, before its answer is sent. Set from the
    /// `BGEMU_TEST_FAULT_EXIT_AFTER_COMMIT` environment variable; nil in normal runs, and only looked at on an
    /// idempotent request.
    public var exitAfterCommitHeader: String?

    public init(
        store: any IdempotencyStore, lifetime: TimeInterval = Idempotency.defaultLifetime,
        inFlight: InFlightKeys = InFlightKeys(), exitAfterCommitHeader: String? = nil
    ) {
        self.store = store
        self.lifetime = lifetime
        self.inFlight = inFlight
        self.exitAfterCommitHeader = exitAfterCommitHeader
    }

    /// Whether `key` is a valid idempotency key: 1 to 255 visible ASCII characters (`!` to `~`).
    static func isValid(_ key: String) -> Bool {
        let bytes = key.utf8
        return (1...255).contains(bytes.count) && bytes.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// What a retry must repeat: the method, the target (path and query) and the SHA-256 of the body (the one a
    /// preparation took, ``BodyDigest``, when there is one).
    static func fingerprint(of request: HTTPRequest, context: HTTPRequestContext) -> StoredAnswer.Fingerprint {
        StoredAnswer.Fingerprint(
            method: request.method.rawValue, path: request.target,
            bodySHA256: context[BodyDigest.self] ?? BodyDigest.of(request))
    }
}

extension Problems {
    static func invalidIdempotencyKey() -> HTTPProblem {
        HTTPProblem(
            status: .badRequest, code: "invalidIdempotencyKey",
            detail: "`Idempotency-Key` must be 1 to 255 visible ASCII characters.")
    }

    static func idempotencyKeyReused() -> HTTPProblem {
        HTTPProblem(
            status: .unprocessableContent, code: "idempotencyKeyReused",
            detail: "This `Idempotency-Key` was used with another request (method, path or body); use a new key.")
    }

    static func idempotencyKeyInFlight() -> HTTPProblem {
        HTTPProblem(
            status: .conflict, code: "idempotencyKeyInFlight",
            detail: "A request with this `Idempotency-Key` is still being processed; retry it later.")
    }
}
