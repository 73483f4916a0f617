import Foundation
import Testing
@testable import API

@Suite struct DeviceRoutesTests {
    let api: APIHarness
    let key: String
    init() throws {
        api = try APIHarness()
        key = try api.makeTenant("acme").key
    }

    @Test func newDeviceHasTheDefaults() throws {
        let created = api.send(.post, "/v1/devices", key: key, json: #"{"name":"My iPhone"}"#)
        #expect(created.status == 201)
        let id = try #require(created.json["id"] as? String)
        #expect(id.hasPrefix("dev_"))
        #expect(created.headers["Location"] == "/v1/devices/\(id)")
        #expect(created.json["osVersion"] as? String == "17.0")
        #expect(created.json["model"] as? String == "iPhone")
        #expect(created.json["profile"] as? String == "ios13")
        let policy = try #require(created.json["policy"] as? [String: Any])
        #expect(policy["backgroundTaskAllowance"] as? Double == 30)
        #expect(policy["opportunityInterval"] as? Double == 900)
        #expect((created.json["policyOverrides"] as? [String: Any])?.isEmpty == true)
        let clock = try #require(created.json["clock"] as? [String: Any])
        #expect(clock["mode"] as? String == "manual")
        #expect(clock["now"] as? String == "2026-01-01T00:00:00.000Z")
        let conditions = try #require(created.json["conditions"] as? [String: Any])
        #expect(conditions["batteryLevel"] as? Int == 100)
        #expect(conditions["network"] as? String == "wifi")
        #expect(created.json["seed"] is Int)
    }

    @Test func osVersionSelectsTheProfile() throws {
        let old = api.send(.post, "/v1/devices", key: key, json: #"{"name":"old","osVersion":"6.1"}"#)
        #expect((old.json["policy"] as? [String: Any])?["backgroundTaskAllowance"] as? Double == 600)
        #expect((old.json["policy"] as? [String: Any])?["appRefreshRun"] is NSNull)
        let mid = api.send(.post, "/v1/devices", key: key, json: #"{"name":"mid","osVersion":"9.3.5"}"#)
        #expect(mid.json["profile"] as? String == "ios7")
    }

    @Test func everyInvalidFieldIsNamed() {
        let body = """
            {"name":"", "osVersion":"3.1", "clock":{"mode":"sundial","scale":-1,"start":"yesterday"},
             "conditions":{"batteryLevel":140,"network":"5g"}}
            """
        let response = api.send(.post, "/v1/devices", key: key, json: body)
        #expect(response.status == 422)
        #expect(response.problemCode == "validationFailed")
        #expect(Set(response.errorFields) == [
            "name", "osVersion", "clock.mode", "clock.scale", "clock.start", "conditions.batteryLevel", "conditions.network",
        ])
    }

    /// Foundation reads a number that does not fit an integer field as corrupted data: the body is still well-formed
    /// JSON, so it is a `422` naming the field that holds the number, not a `400` that calls it malformed.
    @Test func aNumberThatDoesNotFitAnIntegerFieldIs422NamingItsField() {
        for (body, field) in [
            (#"{"name":"x","seed":-1}"#, "seed"), (#"{"name":"x","seed":1.5}"#, "seed"),
            (#"{"name":"x","seed":18446744073709551616}"#, "seed"),
            (#"{"name":"x","conditions":{"batteryLevel":1e30}}"#, "conditions.batteryLevel"),
        ] {
            let response = api.send(.post, "/v1/devices", key: key, json: body)
            #expect(response.status == 422 && response.problemCode == "validationFailed", "\(body)")
            #expect(response.errorFields == [field], "\(body)")
        }
        let malformed = api.send(.post, "/v1/devices", key: key, json: #"{"name":"x","seed":}"#)
        #expect(malformed.status == 400 && malformed.problemCode == "malformedRequest")
    }

    /// Every date the API writes has a 4-digit year: a clock starts and runs up to 9000-01-01T00:00:00Z at most.
    @Test func theClockRunsUpToTheYear9000() throws {
        let late = api.send(.post, "/v1/devices", key: key, json: #"{"name":"x","clock":{"start":"9000-01-01T00:00:01Z"}}"#)
        #expect(late.status == 422 && late.errorFields == ["clock.start"])
        let created = api.send(.post, "/v1/devices", key: key, json: #"{"name":"x","clock":{"start":"8999-12-31T00:00:00Z"}}"#)
        let id = try #require(created.json["id"] as? String)
        let tooFar = api.send(.post, "/v1/devices/\(id)/clock/advance", key: key, json: #"{"seconds":86401}"#)
        #expect(tooFar.status == 409 && tooFar.problemCode == "clockAtLimit")
        let advanced = api.send(.post, "/v1/devices/\(id)/clock/advance", key: key, json: #"{"seconds":86400}"#)
        #expect(advanced.json["now"] as? String == "9000-01-01T00:00:00.000Z")
    }

    @Test func wrongTypesAndUnknownFieldsAre422NamingTheField() {
        let wrongType = api.send(.post, "/v1/devices", key: key, json: #"{"name":"x","conditions":{"charging":"yes"}}"#)
        #expect(wrongType.status == 422 && wrongType.errorFields == ["conditions.charging"])
        let unknown = api.send(.post, "/v1/devices", key: key, json: #"{"name":"x","colour":"red"}"#)
        #expect(unknown.status == 422 && unknown.errorFields == ["colour"])
    }

    @Test func malformedJSONIs400AndOtherMediaTypes415() {
        #expect(api.send(.post, "/v1/devices", key: key, json: #"{"name":"#).status == 400)
        #expect(api.send(.post, "/v1/devices", key: key, json: "").status == 400)
        let form = api.send(.post, "/v1/devices", key: key, body: Array("name=x".utf8),
                            headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(form.status == 415)
    }

    @Test func conditionsPatchChangesOnlyWhatItNames() throws {
        let id = try api.makeDevice(key: key)
        let patched = api.send(.patch, "/v1/devices/\(id)/conditions", key: key,
                               json: #"{"batteryLevel":15,"lowPowerMode":true,"network":"cellular"}"#)
        #expect(patched.status == 200)
        #expect(patched.json["batteryLevel"] as? Int == 15)
        #expect(patched.json["lowPowerMode"] as? Bool == true)
        #expect(patched.json["network"] as? String == "cellular")
        #expect(patched.json["backgroundAppRefresh"] as? Bool == true)
        let shown = api.send(.get, "/v1/devices/\(id)", key: key)
        #expect((shown.json["conditions"] as? [String: Any])?["batteryLevel"] as? Int == 15)
        let bad = api.send(.patch, "/v1/devices/\(id)/conditions", key: key, json: #"{"batteryLevel":-1}"#)
        #expect(bad.status == 422 && bad.errorFields == ["batteryLevel"])
    }

    @Test func clockShowsModeNowAndScale() throws {
        let id = try api.makeDevice(
            key: key, json: #"{"name":"rt","clock":{"mode":"manual","start":"2026-03-01T08:00:00+01:00"}}"#)
        let clock = api.send(.get, "/v1/devices/\(id)/clock", key: key)
        #expect(clock.status == 200)
        #expect(clock.json["mode"] as? String == "manual")
        #expect(clock.json["now"] as? String == "2026-03-01T07:00:00.000Z")
        #expect(clock.json["scale"] as? Double == 1)
    }

    @Test func devicesOfAnotherTenantAreNotFound() throws {
        let id = try api.makeDevice(key: key)
        let other = try api.makeTenant("globex").key
        #expect(api.send(.get, "/v1/devices/\(id)", key: other).status == 404)
        #expect(api.send(.delete, "/v1/devices/\(id)", key: other).status == 404)
        #expect(api.send(.patch, "/v1/devices/\(id)/conditions", key: other, json: #"{"locked":true}"#).status == 404)
        #expect(api.send(.get, "/v1/devices", key: other).items.isEmpty)
        #expect(api.send(.get, "/v1/devices/\(id)", key: key).status == 200)
    }

    @Test func deviceListPagesAndDeleteRemoves() throws {
        let ids = try (0..<3).map { _ in try api.makeDevice(key: key) }
        let first = api.send(.get, "/v1/devices?limit=2", key: key)
        #expect(first.items.compactMap { $0["id"] as? String } == Array(ids.prefix(2)))
        let cursor = try #require(first.json["nextCursor"] as? String)
        let second = api.send(.get, "/v1/devices?limit=2&cursor=\(cursor)", key: key)
        #expect(second.items.compactMap { $0["id"] as? String } == [ids[2]])
        #expect(second.json.keys.contains("nextCursor") && second.json["nextCursor"] is NSNull)
        #expect(api.send(.delete, "/v1/devices/\(ids[0])", key: key).status == 204)
        #expect(api.send(.get, "/v1/devices/\(ids[0])", key: key).status == 404)
    }

    @Test func healthAndReadiness() {
        #expect(api.send(.get, "/healthz").text == #"{"status":"ok"}"#)
        #expect(api.send(.get, "/readyz").status == 200)
    }
}
