import Foundation

/// The first answer to a request that carried an idempotency key, kept so that a retry gets it again instead of
/// doing the work twice. Opaque to the emulation: a status, header fields and body bytes, stored as answered.
public struct StoredAnswer: Sendable, Equatable {
    /// What identifies the request: its method, its target and the SHA-256 (hex) of its body.
    public struct Fingerprint: Sendable, Equatable {
        public var method: String
        public var path: String
        public var bodySHA256: String
        public init(method: String, path: String, bodySHA256: String) {
            self.method = method
            self.path = path
            self.bodySHA256 = bodySHA256
        }
    }

    public var fingerprint: Fingerprint
    public var status: Int
    /// The header fields in order, names as written.
    public var headers: [[String]]
    public var body: [UInt8]
    public var createdAt: Date

    public init(fingerprint: Fingerprint, status: Int, headers: [[String]], body: [UInt8], createdAt: Date) {
        self.fingerprint = fingerprint
        self.status = status
        self.headers = headers
        self.body = body
        self.createdAt = createdAt
    }
}

/// Where the answers to requests with an idempotency key are kept, per tenant and key.
public protocol IdempotencyStore: Sendable {
    /// Runs `body` in one write transaction, committed before this returns and rolled back if `body` throws. The
    /// writes of the other stores on the same database that `body` makes on this thread join the transaction, so
    /// ``save(_:tenantId:key:expiringBefore:)`` inside it commits with them or not at all.
    func transaction<T>(_ body: () throws -> T) throws -> T
    /// The tenant's answer stored under `key`, unless it was stored before `notBefore` (expired).
    func answer(tenantId: String, key: String, notBefore: Date) throws -> StoredAnswer?
    /// Stores `answer` under the tenant's `key`, replacing an expired one; prunes a bounded batch of answers
    /// stored before `expiringBefore`. Meant to run inside ``transaction(_:)``.
    func save(_ answer: StoredAnswer, tenantId: String, key: String, expiringBefore: Date) throws
}
