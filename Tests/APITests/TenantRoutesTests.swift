import Foundation
import Testing
@testable import API
@testable import Service

@Suite struct TenantRoutesTests {
    let api: APIHarness
    init() throws { api = try APIHarness() }

    @Test func adminRoutesNeedTheAdminToken() throws {
        #expect(api.send(.get, "/v1/admin/tenants").status == 401)
        #expect(api.send(.get, "/v1/admin/tenants", key: "wrong").status == 401)
        let (_, key) = try api.makeTenant("acme")
        #expect(api.send(.get, "/v1/admin/tenants", key: key).status == 401)
        let ok = api.send(.get, "/v1/admin/tenants", key: APIHarness.adminToken)
        #expect(ok.status == 200)
        #expect(ok.items.map { $0["name"] as? String } == ["acme"])
    }

    @Test func createdTenantShowsItsKeyOnceAndStoresOnlyAHash() throws {
        let created = api.send(.post, "/v1/admin/tenants", key: APIHarness.adminToken, json: #"{"name":"acme"}"#)
        #expect(created.status == 201)
        let id = try #require(created.json["id"] as? String)
        let key = try #require(created.json["apiKey"] as? String)
        #expect(id.hasPrefix("ten_"))
        #expect(key == "bgemu_\(id).\(key.split(separator: ".").last ?? "")" && key.count == 6 + 28 + 1 + 43)  // the tenant, 32 random bytes
        #expect(SecretGenerator.tenantId(inKey: key) == id)
        #expect(created.headers["Location"] == "/v1/admin/tenants/\(id)")
        let detail = api.send(.get, "/v1/admin/tenants/\(id)", key: APIHarness.adminToken)
        #expect(!detail.text.contains(key))
        let keys = detail.json["keys"] as? [[String: Any]] ?? []
        #expect(keys.count == 1)
        let stored = try api.tenants.keys(tenantId: id)
        #expect(stored.map(\.hash) == [KeyHasher.sha256Hex(key)])
    }

    @Test func tenantNamesAreUniqueAndValidated() throws {
        _ = try api.makeTenant("acme")
        let again = api.send(.post, "/v1/admin/tenants", key: APIHarness.adminToken, json: #"{"name":"acme"}"#)
        #expect(again.status == 409 && again.problemCode == "tenantExists")
        let empty = api.send(.post, "/v1/admin/tenants", key: APIHarness.adminToken, json: #"{"name":""}"#)
        #expect(empty.status == 422 && empty.errorFields == ["name"])
        let missing = api.send(.post, "/v1/admin/tenants", key: APIHarness.adminToken, json: #"{}"#)
        #expect(missing.status == 422 && missing.errorFields == ["name"])
    }

    @Test func issuedKeysWorkAndRevokedKeysStop() throws {
        let (id, first) = try api.makeTenant("acme")
        let issued = api.send(.post, "/v1/admin/tenants/\(id)/keys", key: APIHarness.adminToken)
        #expect(issued.status == 201)
        let second = try #require(issued.json["apiKey"] as? String)
        let keyId = try #require(issued.json["id"] as? String)
        #expect(api.send(.get, "/v1/devices", key: first).status == 200)
        #expect(api.send(.get, "/v1/devices", key: second).status == 200)
        #expect(api.send(.delete, "/v1/admin/tenants/\(id)/keys/\(keyId)", key: APIHarness.adminToken).status == 204)
        #expect(api.send(.get, "/v1/devices", key: second).status == 401)
        #expect(api.send(.get, "/v1/devices", key: first).status == 200)
        #expect(api.send(.delete, "/v1/admin/tenants/\(id)/keys/\(keyId)", key: APIHarness.adminToken).status == 404)
    }

    @Test func deletingATenantRemovesItsDevicesAndKeys() throws {
        let (id, key) = try api.makeTenant("acme")
        let deviceId = try api.makeDevice(key: key)
        #expect(api.send(.delete, "/v1/admin/tenants/\(id)", key: APIHarness.adminToken).status == 204)
        #expect(api.send(.get, "/v1/devices/\(deviceId)", key: key).status == 401)
        #expect(api.send(.get, "/v1/admin/tenants/\(id)", key: APIHarness.adminToken).status == 404)
        #expect(api.send(.delete, "/v1/admin/tenants/\(id)", key: APIHarness.adminToken).status == 404)
    }

    @Test func tenantListPagesInCreationOrder() throws {
        for name in ["a", "b", "c", "d", "e"] { _ = try api.makeTenant(name) }
        var names: [String] = []
        var cursor: String?
        repeat {
            let target = "/v1/admin/tenants?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
            let page = api.send(.get, target, key: APIHarness.adminToken)
            #expect(page.status == 200)
            names += page.items.compactMap { $0["name"] as? String }
            cursor = page.json["nextCursor"] as? String
        } while cursor != nil
        #expect(names == ["a", "b", "c", "d", "e"])
        #expect(api.send(.get, "/v1/admin/tenants?limit=0", key: APIHarness.adminToken).status == 422)
        #expect(api.send(.get, "/v1/admin/tenants?limit=501", key: APIHarness.adminToken).status == 422)
        #expect(api.send(.get, "/v1/admin/tenants?cursor=bogus", key: APIHarness.adminToken).status == 422)
    }

    @Test func malformedAuthorizationIsUnauthorized() {
        let basic = api.send(.get, "/v1/devices", headers: ["Authorization": "Basic dXNlcjpwYXNz"])
        #expect(basic.status == 401)
        #expect(basic.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
        #expect(basic.headers["Content-Type"] == "application/problem+json")
    }
}
