import CompactJSON
import Emulation
import Foundation
import Testing
@testable import API

/// A device's answer is written by hand (`DeviceBody+Writing`); its `Encodable` conformance stays the reference.
/// The bytes must be what Foundation's encoder writes from that conformance, and what the contract's `Device`
/// schema describes: every required field, nothing else, each of its type.
@Suite struct DeviceBodyWritingTests {
    static func foundation(_ body: DeviceBody, escapesSlashes: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = escapesSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(body), as: UTF8.self)
    }

    /// Devices of each profile, with overrides (a policy of their own), a scenario, a realtime clock and a name
    /// that needs escapes.
    static func devices() -> [Device] {
        let created = Date(timeIntervalSince1970: 1_767_225_600.123)
        var devices = [
            Device(id: "dev_000000000000000000000001", tenantId: "ten_1", name: "plain", createdAt: created),
            Device(
                id: "dev_000000000000000000000002", tenantId: "ten_1", name: "old/\"quoted\" \\ \u{1} é 🚀", model: "iPod touch",
                osVersion: OSVersion(major: 6, minor: 1), multitaskingSupported: false,
                clock: DeviceClock(mode: .realtime, scale: 0.25, start: .defaultStart, wallMilliseconds: 1_000),
                conditions: DeviceConditions(batteryLevel: 3, charging: true, lowPowerMode: true, network: .none,
                                             backgroundAppRefresh: false, locked: true, userActive: false),
                seed: UInt64.max, createdAt: created),
            Device(id: "dev_000000000000000000000003", tenantId: "ten_1", name: "mid", osVersion: OSVersion(major: 12, minor: 4, patch: 1),
                   seed: 5, createdAt: created),
        ]
        devices[2].policyOverrides = ["backgroundTaskAllowance": 45.5, "opportunityInterval": 600]
        devices[2].scenario = "nightly/sync"
        return devices
    }

    @Test func theWrittenAnswerIsWhatItsEncodableGivesFoundation() throws {
        for device in Self.devices() {
            let body = DeviceBody(device, wallMilliseconds: 61_000)
            for escapes in [false, true] {
                let written = try CompactJSONEncoder(escapesSlashes: escapes).encode(body)
                #expect(String(decoding: written, as: UTF8.self) == (try Self.foundation(body, escapesSlashes: escapes)))
            }
        }
    }

    @Test func theWrittenAnswerMeetsTheContractsDeviceSchema() throws {
        let contract = try ContractSchema.load()
        for device in Self.devices() {
            let written = try JSONBody.encoder.encode(DeviceBody(device, wallMilliseconds: 61_000))
            #expect(try contract.problems(written, against: "Device") == [])
        }
        // The check is not vacuous: a field left out, or one of the wrong type, is found.
        let written = String(decoding: try JSONBody.encoder.encode(DeviceBody(Self.devices()[0], wallMilliseconds: 0)), as: UTF8.self)
        let withoutSeed = written.replacingOccurrences(of: #","seed":0"#, with: "")
        #expect(try contract.problems(Array(withoutSeed.utf8), against: "Device") == ["$: seed is required"])
        let stringCount = written.replacingOccurrences(of: #""appCount":0"#, with: #""appCount":"0""#)
        #expect(try contract.problems(Array(stringCount.utf8), against: "Device").count == 1)
    }

    /// Over HTTP: the answers of creation, read, rename and reboot, for devices of every profile.
    @Test func answersOfTheDeviceRoutesMeetTheContractsDeviceSchema() throws {
        let contract = try ContractSchema.load()
        let api = try APIHarness()
        let key = try api.makeTenant("acme").key
        let bodies = [
            #"{"name":"My iPhone"}"#,
            #"{"name":"old \"one\"/x","osVersion":"6.1","seed":18446744073709551615,"clock":{"mode":"realtime","scale":2.5}}"#,
            #"{"name":"mid","osVersion":"12.4.1","policy":{"backgroundTaskAllowance":45},"conditions":{"network":"none","batteryLevel":7}}"#,
        ]
        for json in bodies {
            let created = api.send(.post, "/v1/devices", key: key, json: json)
            #expect(created.status == 201)
            #expect(try contract.problems(created.body, against: "Device") == [])
            let id = try #require(created.json["id"] as? String)
            for response in [
                api.send(.get, "/v1/devices/\(id)", key: key),
                api.send(.patch, "/v1/devices/\(id)", key: key, json: #"{"name":"renamed"}"#),
                api.send(.post, "/v1/devices/\(id)/reboot", key: key),
            ] {
                #expect(response.status == 200)
                let found = try contract.problems(response.body, against: "Device")
                #expect(found == [], "\(found)")
            }
        }
    }
}
