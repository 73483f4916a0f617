import Foundation
import Logging
import Synchronization
import Testing
@testable import API
@testable import HTTPServer
@testable import Service

/// The admin routes of a tenant's move: the fence on its writes, its export and its import (issue 30).
@Suite struct TenantFenceTests {
    let admin = APIHarness.adminToken

    @Test func aFencedTenantsWritesAre503WithRetryAfterAndOnlyItsOwn() throws {
        let api = try APIHarness()
        let fenced = try api.makeTenant("fenced")
        let other = try api.makeTenant("other")
        let device = try api.makeDevice(key: fenced.key)

        let fence = api.send(.put, "/v1/admin/tenants/\(fenced.id)/fence", key: admin)
        #expect(fence.status == 200)
        #expect(fence.json["fenced"] as? Bool == true)

        let refused = api.send(.post, "/v1/devices", key: fenced.key, json: #"{"name":"x"}"#)
        #expect(refused.status == 503)
        #expect(refused.problemCode == "tenantFenced")
        #expect(refused.headers["Retry-After"] == "2")
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        #expect(api.send(.delete, "/v1/devices/\(device)", key: fenced.key).status == 503)
        // Reads go on; another tenant's writes too.
        #expect(api.send(.get, "/v1/devices/\(device)", key: fenced.key).status == 200)
        #expect(api.send(.get, "/v1/events", key: fenced.key).status == 200)
        #expect(api.send(.post, "/v1/devices", key: other.key, json: #"{"name":"y"}"#).status == 201)

        #expect(api.send(.delete, "/v1/admin/tenants/\(fenced.id)/fence", key: admin).status == 200)
        #expect(api.send(.post, "/v1/devices", key: fenced.key, json: #"{"name":"x"}"#).status == 201)
    }

    @Test func aFencedTenantsWriteIsRefusedFromItsHead() throws {
        let api = try APIHarness()
        let tenant = try api.makeTenant("fenced")
        var headers = HTTPHeaders()
        headers["Authorization"] = "Bearer \(tenant.key)"
        headers["Content-Type"] = "application/json"
        headers["Content-Length"] = "100000"
        let head = HTTPRequest(method: .post, target: "/v1/devices", headers: headers)
        let context = HTTPRequestContext(requestId: "test", logger: Logger(label: "test"))
        #expect(!api.responder.answersWithoutBody(head, context: context))
        #expect(api.send(.put, "/v1/admin/tenants/\(tenant.id)/fence", key: admin).status == 200)
        #expect(api.responder.answersWithoutBody(head, context: context), "fenced: answered from the head")
    }

    @Test func theFenceWaitsForTheTenantsWritesInFlight() throws {
        let api = try APIHarness()
        let tenant = try api.makeTenant("busy")
        #expect(api.moves.fences.enter(tenant.id))  // a write of the tenant in flight
        let answered = Atomic<Int>(0)
        let thread = Thread {
            answered.store(api.send(.put, "/v1/admin/tenants/\(tenant.id)/fence", key: APIHarness.adminToken).status, ordering: .sequentiallyConsistent)
        }
        thread.start()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(answered.load(ordering: .sequentiallyConsistent) == 0)  // still waiting
        // Meanwhile new writes are refused already.
        #expect(!api.moves.fences.enter(tenant.id))
        api.moves.fences.leave(tenant.id)
        let deadline = Date().addingTimeInterval(5)
        while answered.load(ordering: .sequentiallyConsistent) == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(answered.load(ordering: .sequentiallyConsistent) == 200)
    }

    @Test func aFenceThatOutwaitsItsTimeoutIs503AndStaysSet() throws {
        let api = try APIHarness()
        let tenant = try api.makeTenant("stuck")
        var moves = api.moves
        moves.fenceTimeout = 0.1
        #expect(moves.fences.enter(tenant.id))
        #expect(throws: TenantMoves.Refusal.writesInFlight(tenantId: tenant.id, count: 1)) { try moves.fence(tenantId: tenant.id) }
        #expect(moves.isFenced(tenantId: tenant.id))
        moves.fences.leave(tenant.id)
    }

    @Test func unknownTenantsAre404() throws {
        let api = try APIHarness()
        #expect(api.send(.put, "/v1/admin/tenants/ten_none/fence", key: admin).status == 404)
        #expect(api.send(.delete, "/v1/admin/tenants/ten_none/fence", key: admin).status == 404)
        #expect(api.send(.get, "/v1/admin/tenants/ten_none/export", key: admin).status == 404)
        #expect(api.send(.put, "/v1/admin/tenants/ten_none/fence").status == 401)
    }

    @Test func anExportImportsOnAnotherInstanceWhereItsKeyWorksAndIsRefusedTwice() throws {
        let source = try APIHarness()
        let target = try APIHarness()
        let tenant = try source.makeTenant("moving")
        let device = try source.makeDevice(key: tenant.key)
        _ = try target.makeDevice(key: try target.makeTenant("resident").key)
        let export = source.send(.get, "/v1/admin/tenants/\(tenant.id)/export", key: admin)
        #expect(export.status == 200)
        #expect(export.json["tenantId"] as? String == tenant.id)

        let imported = target.send(
            .post, "/v1/admin/tenants/import", key: admin, body: export.body, headers: ["Content-Type": "application/json"])
        #expect(imported.status == 201)
        #expect(imported.json["tenantId"] as? String == tenant.id)
        #expect(target.send(.get, "/v1/devices/\(device)", key: tenant.key).status == 200)

        let again = target.send(
            .post, "/v1/admin/tenants/import", key: admin, body: export.body, headers: ["Content-Type": "application/json"])
        #expect(again.status == 409)
        #expect(again.problemCode == "tenantExists")
        // Into its own source: the name and id exist there.
        #expect(source.send(
            .post, "/v1/admin/tenants/import", key: admin, body: export.body, headers: ["Content-Type": "application/json"]
        ).status == 409)
        let garbage = target.send(.post, "/v1/admin/tenants/import", key: admin, json: #"{"format":"x"}"#)
        #expect(garbage.status == 422)
    }
}
