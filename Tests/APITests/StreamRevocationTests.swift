import Foundation
import Testing
@testable import API
@testable import HTTPServer

/// Open event streams end with what let them open: a tenant's with the tenant (deleted, or moved to another shard,
/// whose last step is the deletion on the source: its clients reconnect with `Last-Event-ID` and reach the shard it
/// is on now, instead of waiting on this one's heartbeats for events that will never come), a key's with its
/// revocation (a revoked key stops working at once). Other streams go on.
@Suite struct StreamRevocationTests {
    @Test func deletingATenantEndsItsOpenStreamsAndNoOtherTenants() throws {
        let api = try EventTestHarness()
        let leaving = try api.makeTenant("leaving")
        let staying = try api.makeTenant("staying")
        let (opened, leavingStream) = api.openStream("/v1/events", key: leaving.key)
        let (_, secondLeavingStream) = api.openStream("/v1/events?type=app.", key: leaving.key)
        let (_, stayingStream) = api.openStream("/v1/events", key: staying.key)
        #expect(opened.status == .ok)
        #expect(api.hub.openStreamsByTenant()[leaving.id] == 2)

        let deleted = api.send(.delete, "/v1/admin/tenants/\(leaving.id)", key: EventTestHarness.adminToken)
        #expect(deleted.status == 204)
        #expect(leavingStream.isFinished && secondLeavingStream.isFinished)
        #expect(!stayingStream.isFinished && stayingStream.isOpen)
        #expect(api.hub.openStreamsByTenant()[leaving.id] == nil)
        #expect(api.hub.openStreamsByTenant()[staying.id] == 1)
    }

    @Test func revokingAKeyEndsTheStreamsItOpenedAndNotTheOtherKeysOfItsTenant() throws {
        let api = try EventTestHarness()
        let tenant = try api.makeTenant("two-keys")
        let second = api.send(.post, "/v1/admin/tenants/\(tenant.id)/keys", key: EventTestHarness.adminToken)
        #expect(second.status == 201)
        let secondKey = try #require(second.json["apiKey"] as? String)
        let secondKeyId = try #require(second.json["id"] as? String)
        let (_, byFirstKey) = api.openStream("/v1/events", key: tenant.key)
        let (_, bySecondKey) = api.openStream("/v1/events", key: secondKey)
        let (_, bySecondKeyOnAccessToken) = api.openStream("/v1/events?access_token=\(secondKey)", key: nil)
        #expect(api.hub.openStreamsByTenant()[tenant.id] == 3)

        let revoked = api.send(.delete, "/v1/admin/tenants/\(tenant.id)/keys/\(secondKeyId)", key: EventTestHarness.adminToken)
        #expect(revoked.status == 204)
        #expect(bySecondKey.isFinished && bySecondKeyOnAccessToken.isFinished)
        #expect(!byFirstKey.isFinished && byFirstKey.isOpen)
        #expect(api.hub.openStreamsByTenant()[tenant.id] == 1)
        #expect(api.openStream("/v1/events", key: secondKey).response.status == .unauthorized)
    }
}
