import Foundation
import Testing
@testable import API

/// A tenant's quota of devices: one tenant cannot fill the database the others share.
@Suite struct TenantQuotaTests {
    @Test func pastItsQuotaATenantsNewDeviceIsAConflictAndOtherTenantsAreUntouched() throws {
        let api = try APIHarness(maximumDevicesPerTenant: 2)
        let greedy = try api.makeTenant("greedy").key, other = try api.makeTenant("other").key
        let first = try api.makeDevice(key: greedy)
        _ = try api.makeDevice(key: greedy)
        let third = api.send(.post, "/v1/devices", key: greedy, json: #"{"name":"one too many"}"#)
        #expect(third.status == 409 && third.problemCode == "tooManyDevices")
        // A scenario run makes a device too, and is refused the same way.
        let scenario = #"{"name":"s","steps":[],"expect":[{"state":{"bundleId":"a.b","is":"notRunning","at":1}}],"apps":[{"bundleId":"a.b"}]}"#
        #expect(api.send(.post, "/v1/scenarios/run", key: greedy, json: scenario).problemCode == "tooManyDevices")
        #expect(api.send(.post, "/v1/devices", key: other, json: #"{"name":"mine"}"#).status == 201)
        // Deleting one gives its place back.
        #expect(api.send(.delete, "/v1/devices/\(first)", key: greedy).status == 204)
        #expect(api.send(.post, "/v1/devices", key: greedy, json: #"{"name":"again"}"#).status == 201)
    }
}
