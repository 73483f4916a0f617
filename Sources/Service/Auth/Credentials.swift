import Emulation
import Locking
import Stores

/// Checks admin tokens and API keys. Keys are looked up by their SHA-256; a small cache keeps the hot path off
/// SQLite and is emptied whenever a key or tenant changes.
public final class Credentials: Sendable {
    private let store: any TenantStore
    private let adminTokenHash: String
    private let cache = PlainLock<[String: (keyId: String, tenant: Tenant)]>([:])

    /// - Parameter adminTokenHash: lower-case hex SHA-256 of the admin token.
    public init(store: any TenantStore, adminTokenHash: String) {
        self.store = store
        self.adminTokenHash = adminTokenHash
    }

    /// Whether `token` is the admin token, compared in constant time.
    public func isAdmin(_ token: String) -> Bool {
        KeyHasher.constantTimeEquals(KeyHasher.sha256Hex(token), adminTokenHash)
    }

    /// The tenant of an unrevoked API key.
    public func tenant(forKey key: String) throws -> Tenant? {
        try owner(ofKey: key)?.tenant
    }

    /// An unrevoked API key's id and its tenant.
    public func owner(ofKey key: String) throws -> (keyId: String, tenant: Tenant)? {
        let hash = KeyHasher.sha256Hex(key)
        if let owner = cache.withLock({ $0[hash] }) { return owner }
        guard let found = try store.activeKey(hash: hash), KeyHasher.constantTimeEquals(found.key.hash, hash) else {
            return nil
        }
        let owner = (keyId: found.key.id, tenant: found.tenant)
        cache.withLock { cache in
            if cache.count > 10_000 { cache.removeAll() }
            cache[hash] = owner
        }
        return owner
    }

    /// Forgets every cached key (after a revocation or a tenant's deletion).
    public func invalidate() {
        cache.withLock { $0.removeAll() }
    }
}
