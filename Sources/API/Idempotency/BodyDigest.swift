import HTTPServer
import Service

/// The SHA-256 of a request's body (after its content coding is removed), taken where the body's other heavy work
/// is done: a keyed upload's ``PreparationMiddleware`` job hashes its body on the ``HeavyWorkPool`` under the
/// tenant, so that the idempotency fingerprint of a 16 MiB body is not 40 ms of a normal-priority worker's CPU,
/// taken from every other tenant's requests. Without it in the context, ``Idempotency/fingerprint(of:context:)``
/// hashes the body itself (a JSON body, small).
enum BodyDigest: HTTPContextKey {
    typealias Value = String

    /// The digest `request`'s idempotency fingerprint will need, or nil when it needs none (no key, not a `POST`).
    static func ifKeyed(_ request: HTTPRequest) -> String? {
        guard request.method == .post, request.headers[Idempotency.header] != nil else { return nil }
        return of(request)
    }

    /// A body's digest; hashed in 256 KiB pieces on a thread of the lowest class, which gives its processor back
    /// between them (16 MiB are some 40 ms of SHA-256).
    static func of(_ request: HTTPRequest) -> String {
        request.withBodyBytes { bytes in
            guard bytes.count > 256 << 10, CooperativeYield.isLowPriorityThread() else { return KeyHasher.sha256Hex(bytes) }
            return KeyHasher.sha256Hex(bytes, pieceSize: 256 << 10, between: CooperativeYield.now)
        }
    }
}
