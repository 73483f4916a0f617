import Foundation
import Testing
@testable import API
@testable import HTTPServer

/// A tenant's event streams end with the tenant (deleted, or moved to another shard, whose last step is the
/// deletion on the source): its clients reconnect with `Last-Event-ID` and reach the shard it is on now, instead of
/// waiting on this one's heartbeats for events that will never come. Other tenants' streams go on.
@Suite struct TenantRemovalStreamTests {
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
}
