import Foundation

/// An account of the service: every device, app and event belongs to exactly one tenant.
public struct Tenant: Sendable, Codable, Equatable {
    public var id: String
    public var name: String
    /// Wall-clock time of creation (supplied by the caller; the core never reads the wall clock).
    public var createdAt: Date

    public init(id: String, name: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }
}
