import Foundation

/// A tenant's API key as stored: only the SHA-256 of the secret, never the secret itself.
public struct APIKeyRecord: Sendable, Codable, Equatable {
    public var id: String
    public var tenantId: String
    /// Lower-case hex SHA-256 of the whole key.
    public var hash: String
    /// The first characters of the key, so that a person can tell keys apart.
    public var prefix: String
    public var createdAt: Date
    public var revokedAt: Date?

    public init(id: String, tenantId: String, hash: String, prefix: String, createdAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.tenantId = tenantId
        self.hash = hash
        self.prefix = prefix
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
