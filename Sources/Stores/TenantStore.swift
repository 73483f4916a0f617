import Foundation

/// Where tenants, their keys and the service's own settings live.
public protocol TenantStore: Sendable {
    /// Stores a new tenant together with its first key, atomically.
    func createTenant(_ tenant: Tenant, firstKey: APIKeyRecord) throws
    func tenant(id: String) throws -> Tenant?
    func tenant(named name: String) throws -> Tenant?
    /// Tenants in creation order, `limit` at a time, after `cursor` (from a previous page).
    func tenants(after cursor: String?, limit: Int) throws -> Page<Tenant>
    /// Removes the tenant and everything it owns; false when there was no such tenant.
    func deleteTenant(id: String) throws -> Bool

    func addKey(_ key: APIKeyRecord) throws
    /// The tenant's keys, revoked ones included, in creation order.
    func keys(tenantId: String) throws -> [APIKeyRecord]
    /// Marks a key revoked; false when the tenant has no such key or it was revoked already.
    func revokeKey(tenantId: String, keyId: String, at: Date) throws -> Bool
    /// The unrevoked key with this hash and its tenant.
    func activeKey(hash: String) throws -> (key: APIKeyRecord, tenant: Tenant)?

    /// A service-wide setting (the admin token's hash, say).
    func setting(_ name: String) throws -> String?
    func setSetting(_ name: String, value: String) throws
}
