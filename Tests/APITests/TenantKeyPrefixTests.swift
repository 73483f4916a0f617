import Foundation
import Testing
@testable import API
@testable import Service

/// Issue 30: an API key names its tenant in the clear, so that a proxy routes it to the tenant's shard with no
/// secret in its configuration; keys of the older form (and an operator's `BGEMU_API_KEY`) keep working.
@Suite struct TenantKeyPrefixTests {
    @Test func aNewTenantsKeyIsBgemuItsTenantIdADotAndFortyThreeRandomCharacters() throws {
        let api = try APIHarness()
        let created = api.send(.post, "/v1/admin/tenants", key: APIHarness.adminToken, json: #"{"name":"acme"}"#)
        let id = try #require(created.json["id"] as? String)
        let key = try #require(created.json["apiKey"] as? String)
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 2 && parts[0] == "bgemu_\(id)" && parts[1].count == 43)
        #expect(parts[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        #expect(SecretGenerator.tenantId(inKey: key) == id)
        #expect(api.send(.get, "/v1/devices", key: key).status == 200)

        // A second key of the same tenant names it too, and differs after the dot.
        let second = api.send(.post, "/v1/admin/tenants/\(id)/keys", key: APIHarness.adminToken)
        let other = try #require(second.json["apiKey"] as? String)
        #expect(SecretGenerator.tenantId(inKey: other) == id && other != key)
        #expect(second.json["prefix"] as? String == "bgemu_\(id)." + other.split(separator: ".")[1].prefix(4))
        #expect(api.send(.get, "/v1/devices", key: other).status == 200)
    }

    @Test func aKeyOfTheOlderFormOrAnOperatorsKeyNamesNoTenantAndStillWorks() throws {
        let api = try APIHarness()
        let tenants = TenantService(store: api.tenants)
        let tenant = try tenants.createTenant(named: "legacy").tenant
        let old = SecretGenerator.newSecret()  // `bgemu_` and 43 characters, as keys were minted before
        let chosen = "ci-operator-key-0123456789"
        _ = try tenants.addKey(old, tenantId: tenant.id)
        _ = try tenants.addKey(chosen, tenantId: tenant.id)
        #expect(SecretGenerator.tenantId(inKey: old) == nil && SecretGenerator.tenantId(inKey: chosen) == nil)
        #expect(KeyFactory.displayPrefix(of: old) == String(old.prefix(10)))
        #expect(api.send(.get, "/v1/devices", key: old).status == 200)
        #expect(api.send(.get, "/v1/devices", key: chosen).status == 200)
    }

    @Test func aKeyIsCheckedWholeSoItsTenantPartCannotBeForged() throws {
        let api = try APIHarness()
        let a = api.send(.post, "/v1/admin/tenants", key: APIHarness.adminToken, json: #"{"name":"a"}"#)
        let b = api.send(.post, "/v1/admin/tenants", key: APIHarness.adminToken, json: #"{"name":"b"}"#)
        let aKey = try #require(a.json["apiKey"] as? String), bId = try #require(b.json["id"] as? String)
        // A's secret with B's tenant id in front of it is no key at all.
        let forged = "bgemu_\(bId)." + aKey.split(separator: ".")[1]
        #expect(api.send(.get, "/v1/devices", key: forged).status == 401)
        #expect(SecretGenerator.tenantId(inKey: "bgemu_.abc") == nil && SecretGenerator.tenantId(inKey: "other_ten_x.y") == nil)
    }
}
