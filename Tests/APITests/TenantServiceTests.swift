import Foundation
import Synchronization
import Testing
@testable import Service
import Stores

/// Tenants and keys made and removed in one place, for the admin routes, `keys create` and the start-up alike.
@Suite struct TenantServiceTests {
    let api: APIHarness
    init() throws { api = try APIHarness() }

    @Test func aTenantIsCreatedWithAKeyStoredOnlyAsItsHashAndANameIsTakenOnce() throws {
        let tenants = TenantService(store: api.tenants)
        let (tenant, key) = try tenants.createTenant(named: "team-a")
        #expect(key.record.hash == KeyHasher.sha256Hex(key.secret) && key.record.hash != key.secret)
        #expect(try api.tenants.activeKey(hash: key.record.hash)?.tenant.id == tenant.id)
        #expect(throws: TenantService.Refusal.tenantExists("team-a")) { try tenants.createTenant(named: "team-a") }
    }

    @Test func aKeyByNameCreatesTheTenantOnlyWhenAsked() throws {
        let tenants = TenantService(store: api.tenants)
        #expect(throws: TenantService.Refusal.noSuchTenant("ci")) { try tenants.issueKey(tenantNamed: "ci", creatingTenant: false) }
        let first = try tenants.issueKey(tenantNamed: "ci", creatingTenant: true)
        let second = try tenants.issueKey(tenantNamed: "ci", creatingTenant: false)
        #expect(first.created && !second.created && first.tenant.id == second.tenant.id)
        #expect(try tenants.keys(tenantId: first.tenant.id).count == 2)
        #expect(try tenants.tenantNames() == ["ci"])
    }

    @Test func removingATenantOrRevokingAKeyTellsTheCachesToForget() throws {
        let forgotten = Mutex<[String]>([])
        let tenants = TenantService(
            store: api.tenants, keysChanged: { forgotten.withLock { $0.append("keys") } },
            tenantRemoved: { id in forgotten.withLock { $0.append(id) } })
        let (tenant, key) = try tenants.createTenant(named: "gone")
        try tenants.revokeKey(tenantId: tenant.id, keyId: key.record.id)
        #expect(throws: TenantService.Refusal.noSuchKey(key.record.id)) { try tenants.revokeKey(tenantId: tenant.id, keyId: key.record.id) }
        try tenants.deleteTenant(id: tenant.id)
        #expect(forgotten.withLock { $0 } == ["keys", "keys", tenant.id])
        #expect(throws: TenantService.Refusal.noSuchTenant(tenant.id)) { try tenants.deleteTenant(id: tenant.id) }
        #expect(throws: TenantService.Refusal.noSuchTenant(tenant.id)) { try tenants.issueKey(tenantId: tenant.id) }
    }
}
