import Foundation
import Testing
@testable import API
@testable import Service

@Suite struct CredentialBootstrapTests {
    let api: APIHarness
    init() throws { api = try APIHarness() }

    @Test func firstStartWithoutSecretsGeneratesBothOnce() throws {
        let first = try CredentialBootstrap.run(store: api.tenants, isFirstStart: true, adminToken: nil, apiKey: nil, now: Date())
        let token = try #require(first.generatedAdminToken)
        let key = try #require(first.generatedAPIKey)
        #expect(first.adminTokenHash == KeyHasher.sha256Hex(token))
        #expect(try api.tenants.activeKey(hash: KeyHasher.sha256Hex(key))?.tenant.name == "default")
        let second = try CredentialBootstrap.run(store: api.tenants, isFirstStart: false, adminToken: nil, apiKey: nil, now: Date())
        #expect(second.generatedAdminToken == nil && second.generatedAPIKey == nil)
        #expect(second.adminTokenHash == first.adminTokenHash)
    }

    @Test func configuredAPIKeyBelongsToTheDefaultTenant() throws {
        let outcome = try CredentialBootstrap.run(
            store: api.tenants, isFirstStart: true, adminToken: "admin", apiKey: "ci-key-123", now: Date())
        #expect(outcome.generatedAPIKey == nil && outcome.generatedAdminToken == nil)
        #expect(try api.tenants.activeKey(hash: KeyHasher.sha256Hex("ci-key-123"))?.tenant.name == "default")
        // A later start with another key adds it to the same tenant; the first keeps working.
        _ = try CredentialBootstrap.run(store: api.tenants, isFirstStart: false, adminToken: "admin", apiKey: "ci-key-456", now: Date())
        let tenant = try #require(try api.tenants.tenant(named: "default"))
        #expect(try api.tenants.keys(tenantId: tenant.id).count == 2)
    }

    @Test func apiKeyOfAnotherTenantIsRefused() throws {
        _ = try CredentialBootstrap.run(store: api.tenants, isFirstStart: true, adminToken: "admin", apiKey: nil, now: Date())
        let tenant = api.send(.post, "/v1/admin/tenants", key: APIHarness.adminToken, json: #"{"name":"acme"}"#)
        let key = try #require(tenant.json["apiKey"] as? String)
        #expect(throws: CredentialBootstrap.Failure.self) {
            try CredentialBootstrap.run(store: api.tenants, isFirstStart: false, adminToken: "admin", apiKey: key, now: Date())
        }
    }

    @Test func secretsAreLongAndRandom() {
        let a = SecretGenerator.newSecret()
        let b = SecretGenerator.newSecret()
        #expect(a != b)
        #expect(a.count == 6 + 43)  // "bgemu_" + base64url of 32 bytes
        #expect(KeyHasher.sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(KeyHasher.constantTimeEquals("same", "same") && !KeyHasher.constantTimeEquals("same", "sane"))
    }
}
