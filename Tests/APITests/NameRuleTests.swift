import Foundation
import Testing
@testable import API

/// Issue 26 (defect 5): every name a client gives refuses control characters — a NUL in a device's name was
/// accepted and stored.
@Suite struct NameRuleTests {
    let api: APIHarness
    let key: String
    init() throws {
        api = try APIHarness()
        key = try api.makeTenant("acme").key
    }

    /// JSON escapes of a NUL, an escape, a line feed, DEL and a C1 control (U+0085).
    static let controls = [#"\u0000"#, #"\u001b[31m"#, #"\n"#, #"\u007f"#, #"\u0085"#]

    @Test func aDeviceNameWithAControlCharacterIsRefused() throws {
        for control in Self.controls {
            let created = api.send(.post, "/v1/devices", key: key, json: #"{"name":"CI\#(control)iPhone"}"#)
            #expect(created.status == 422, "\(control)")
            #expect(created.errorFields == ["name"])
            let model = api.send(.post, "/v1/devices", key: key, json: #"{"name":"CI","model":"iPhone\#(control)"}"#)
            #expect(model.status == 422, "\(control)")
            #expect(model.errorFields == ["model"])
        }
        let device = try api.makeDevice(key: key)
        let renamed = api.send(.patch, "/v1/devices/\(device)", key: key, json: #"{"name":"a\u0000b"}"#)
        #expect(renamed.status == 422)
        #expect(renamed.errorFields == ["name"])
        #expect(api.send(.get, "/v1/devices/\(device)", key: key).json["name"] as? String == "Test iPhone")
    }

    @Test func printableNamesInAnyScriptStayAccepted() throws {
        let created = api.send(.post, "/v1/devices", key: key, json: #"{"name":"Zoë's iPhone 📱 — 测试"}"#)
        #expect(created.status == 201)
        #expect(created.json["name"] as? String == "Zoë's iPhone 📱 — 测试")
    }

    @Test func aTenantNameWithAControlCharacterIsRefused() {
        for control in Self.controls {
            let response = api.send(
                .post, "/v1/admin/tenants", key: APIHarness.adminToken, json: #"{"name":"team\#(control)x"}"#)
            #expect(response.status == 422, "\(control)")
            #expect(response.errorFields == ["name"])
        }
    }

    @Test func aBackgroundTaskNameWithAControlCharacterIsRefused() throws {
        let device = try api.makeDevice(key: key)
        let install = api.send(
            .post, "/v1/devices/\(device)/apps", key: key,
            json: #"{"bundleId":"com.example.a","infoPlist":{"UIBackgroundModes":["fetch"]}}"#)
        #expect(install.status == 201)
        _ = api.send(.post, "/v1/devices/\(device)/apps/com.example.a/launch", key: key)
        let begun = api.send(
            .post, "/v1/devices/\(device)/apps/com.example.a/background-tasks", key: key, json: #"{"name":"sync\u0000"}"#)
        #expect(begun.status == 422)
        #expect(begun.errorFields == ["name"])
    }

    @Test func theRuleNamesItsBounds() {
        #expect(NameRule.problem("x", maximum: 100) == nil)
        #expect(NameRule.problem("", maximum: 100) == "must be 1–100 characters, none of them a control character")
        #expect(NameRule.problem("", minimum: 0, maximum: 200) == nil)
        #expect(NameRule.problem("a\tb", minimum: 0, maximum: 200) == "must be at most 200 characters, none of them a control character")
        #expect(NameRule.problem(String(repeating: "é", count: 101), maximum: 100) != nil)
    }
}
