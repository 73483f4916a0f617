import Foundation
import Stores

/// Tenants and their keys, created and removed in one place: the admin routes, `bgemu keys create` on a database
/// file and the start-up's `default` tenant all go through it. A key's secret is made here, shown once to the
/// caller, and stored only as its SHA-256 (``KeyFactory``).
public struct TenantService: Sendable {
    /// A key just made: the secret (shown once) and its stored record.
    public struct IssuedKey: Sendable {
        public var secret: String
        public var record: APIKeyRecord
    }

    /// What the caller asked for cannot be done.
    public enum Refusal: Error, Equatable, Sendable {
        /// A tenant with this name exists already.
        case tenantExists(String)
        /// There is no tenant with this id or name.
        case noSuchTenant(String)
        /// The tenant has no such active key.
        case noSuchKey(String)
    }

    let store: any TenantStore
    let wallClock: @Sendable () -> Date
    let keysChanged: @Sendable () -> Void
    let tenantRemoved: @Sendable (String) -> Void

    /// - Parameters:
    ///   - keysChanged: called after a key is revoked or a tenant removed (the credentials' cache forgets).
    ///   - tenantRemoved: called with a removed tenant's id (its cached devices and running forecast go).
    public init(
        store: any TenantStore, wallClock: @escaping @Sendable () -> Date = { Date() },
        keysChanged: @escaping @Sendable () -> Void = {}, tenantRemoved: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.store = store
        self.wallClock = wallClock
        self.keysChanged = keysChanged
        self.tenantRemoved = tenantRemoved
    }

    /// A new tenant named `name` with its first key.
    public func createTenant(named name: String) throws -> (tenant: Tenant, key: IssuedKey) {
        if try store.tenant(named: name) != nil { throw Refusal.tenantExists(name) }
        return try create(named: name, secret: nil)
    }

    /// A new tenant whose first key is `secret` (the operator's `BGEMU_API_KEY`, say), or a new key naming the
    /// tenant (``SecretGenerator/newSecret(tenantId:)``) when nil.
    func create(named name: String, secret: String?) throws -> (tenant: Tenant, key: IssuedKey) {
        let now = wallClock()
        let tenant = Tenant(id: SecretGenerator.newID("ten"), name: name, createdAt: now)
        let secret = secret ?? SecretGenerator.newSecret(tenantId: tenant.id)
        let key = IssuedKey(secret: secret, record: KeyFactory.record(for: secret, tenantId: tenant.id, at: now))
        do {
            try store.createTenant(tenant, firstKey: key.record)
        } catch StoreError.duplicate {
            throw Refusal.tenantExists(name)
        }
        return (tenant, key)
    }

    /// A new key of the tenant `tenantId`.
    public func issueKey(tenantId: String) throws -> IssuedKey {
        guard try store.tenant(id: tenantId) != nil else { throw Refusal.noSuchTenant(tenantId) }
        return try addKey(SecretGenerator.newSecret(tenantId: tenantId), tenantId: tenantId)
    }

    /// Stores `secret` as a key of `tenantId`.
    func addKey(_ secret: String, tenantId: String) throws -> IssuedKey {
        let key = IssuedKey(secret: secret, record: KeyFactory.record(for: secret, tenantId: tenantId, at: wallClock()))
        try store.addKey(key.record)
        return key
    }

    /// A new key of the tenant named `name`; when there is none, the tenant is created with it if
    /// `creatingTenant`, else ``Refusal/noSuchTenant(_:)``. Answers whether the tenant was created.
    public func issueKey(tenantNamed name: String, creatingTenant: Bool) throws -> (tenant: Tenant, key: IssuedKey, created: Bool) {
        if let tenant = try store.tenant(named: name) { return (tenant, try addKey(SecretGenerator.newSecret(tenantId: tenant.id), tenantId: tenant.id), false) }
        guard creatingTenant else { throw Refusal.noSuchTenant(name) }
        let (tenant, key) = try create(named: name, secret: nil)
        return (tenant, key, true)
    }

    /// Revokes the tenant's key `keyId`.
    public func revokeKey(tenantId: String, keyId: String) throws {
        guard try store.revokeKey(tenantId: tenantId, keyId: keyId, at: wallClock()) else { throw Refusal.noSuchKey(keyId) }
        keysChanged()
    }

    /// Removes the tenant and everything it owns.
    public func deleteTenant(id: String) throws {
        guard try store.deleteTenant(id: id) else { throw Refusal.noSuchTenant(id) }
        keysChanged()
        tenantRemoved(id)
    }

    /// The tenant with `id`.
    public func tenant(id: String) throws -> Tenant {
        guard let tenant = try store.tenant(id: id) else { throw Refusal.noSuchTenant(id) }
        return tenant
    }

    /// Tenants in creation order, `limit` at a time, after `cursor`.
    public func tenants(after cursor: String?, limit: Int) throws -> Page<Tenant> { try store.tenants(after: cursor, limit: limit) }

    /// Every tenant's name, in creation order.
    public func tenantNames() throws -> [String] {
        var names: [String] = []
        var cursor: String?
        repeat {
            let page = try store.tenants(after: cursor, limit: 500)
            names += page.items.map(\.name)
            cursor = page.nextCursor
        } while cursor != nil
        return names
    }

    /// The tenant's keys, revoked ones included.
    public func keys(tenantId: String) throws -> [APIKeyRecord] { try store.keys(tenantId: tenantId) }
}
