import Emulation
import Foundation
import Testing
@testable import API

/// A body's wrongly typed fields named all at once, not only the first, each by its path with what it takes and what
/// it found; a number out of its field's range blamed on that field (issue 29 §3).
@Suite struct EveryFieldIssueTests {
    let api: APIHarness
    let key: String
    init() throws {
        api = try APIHarness()
        key = try api.makeTenant("acme").key
    }

    /// A forecast request of the weather app, `fields` written first (a member given twice would be refused).
    static func forecast(_ fields: String = #""seed": 1, "devices": 2, "days": 1"#, app: String = appFields, extra: String = "") -> String {
        #"{\#(fields), "app": {\#(app)}\#(extra)}"#
    }

    static let appFields = #""bundleId": "com.example.weather", "infoPlist": {"UIBackgroundModes": ["fetch"], "#
        + #""BGTaskSchedulerPermittedIdentifiers": ["com.example.weather.refresh"]}, "#
        + #""atLaunch": {"submit": [{"kind": "appRefresh", "identifier": "com.example.weather.refresh"}], "fetchInterval": "minimum"}"#

    /// The field issues of a problem, as `field: message`.
    static func issues(_ response: TestResponse) -> [String] {
        (response.json["errors"] as? [[String: Any]] ?? []).map { "\($0["field"] ?? ""): \($0["message"] ?? "")" }
    }

    @Test func threeWronglyTypedFieldsOfANewDeviceAreAllNamedInOneAnswer() {
        let answer = api.send(.post, "/v1/devices", key: key, json: #"{"name": 5, "multitaskingSupported": "yes", "seed": "x"}"#)
        #expect(answer.status == 422)
        #expect(answer.headers["Content-Type"] == "application/problem+json")
        #expect(answer.problemCode == "validationFailed")
        #expect(Self.issues(answer) == [
            "name: must be a string, not a number", "multitaskingSupported: must be a boolean, not a string",
            "seed: must be an integer, not a string",
        ])
        // A client reading only `detail` gets every field too.
        #expect(answer.json["detail"] as? String
            == "name: must be a string, not a number; multitaskingSupported: must be a boolean, not a string; seed: must be an integer, not a string")
    }

    @Test func threeWronglyTypedFieldsOfAForecastAreAllNamedInOneAnswer() {
        let answer = api.send(.post, "/v1/forecasts", key: key, json: Self.forecast(#""seed": "one", "devices": "many", "days": true"#))
        #expect(answer.status == 422, "\(answer.text)")
        #expect(Self.issues(answer) == [
            "seed: must be an integer, not a string", "devices: must be an integer, not a string",
            "days: must be an integer, not a boolean",
        ])
    }

    @Test func threeWronglyTypedFieldsOfAConditionsPatchAreAllNamed() throws {
        let device = try api.makeDevice(key: key)
        let answer = api.send(.patch, "/v1/devices/\(device)/conditions", key: key,
                              json: #"{"batteryLevel": "full", "charging": 1, "network": false}"#)
        #expect(answer.status == 422)
        #expect(answer.errorFields == ["batteryLevel", "charging", "network"])
    }

    @Test func fieldsInsideObjectsAndArraysAreNamedByTheirPaths() {
        let device = api.send(.post, "/v1/devices", key: key,
                              json: #"{"name": "a", "clock": {"scale": "fast"}, "conditions": {"batteryLevel": "full", "charging": 1}, "policy": {"opportunityInterval": "soon"}}"#)
        #expect(device.status == 422)
        #expect(Self.issues(device) == [
            "clock.scale: must be a number, not a string", "conditions.batteryLevel: must be an integer, not a string",
            "conditions.charging: must be a boolean, not a number", "policy.opportunityInterval: must be a number, not a string",
        ])
        let app = #""bundleId": "com.example.weather", "infoPlist": {"UIBackgroundModes": ["fetch", 7]}, "launchHandlers": ["a", false]"#
        let forecast = api.send(.post, "/v1/forecasts", key: key, json: Self.forecast(
            app: app, extra: #", "pushes": [{"everyMinutes": 60}, {"everyMinutes": "often", "priority": "high"}]"#))
        #expect(forecast.status == 422)
        #expect(forecast.errorFields == [
            "app.infoPlist.UIBackgroundModes[1]", "app.launchHandlers[1]", "pushes[1].everyMinutes", "pushes[1].priority",
        ], "\(forecast.text)")
    }

    @Test func aWronglyTypedFieldAndAMissingOneAreBothNamed() {
        let answer = api.send(.post, "/v1/forecasts", key: key, json: Self.forecast(#""seed": "one", "days": 1"#))
        #expect(answer.status == 422)
        #expect(Self.issues(answer) == ["seed: must be an integer, not a string", "devices: is required"])
    }

    @Test func aSeedOf2To64IsBlamedOnSeed() {
        let alone = api.send(.post, "/v1/forecasts", key: key, json: Self.forecast(#""seed": 18446744073709551616, "devices": 2, "days": 1"#))
        #expect(alone.status == 422)
        #expect(Self.issues(alone) == ["seed: must be an integer from 0 to 18446744073709551615, not 18446744073709551616"])
        // With another field wrong: both, each its own.
        let two = api.send(.post, "/v1/forecasts", key: key, json: Self.forecast(#""seed": 18446744073709551616, "devices": 2.5, "days": "1""#))
        #expect(two.errorFields == ["seed", "devices", "days"], "\(two.text)")
        #expect(api.send(.post, "/v1/forecasts", key: key, json: Self.forecast(#""seed": 18446744073709551615, "devices": 2, "days": 1"#)).status
            == 202, "the largest seed is one")
    }

    @Test func anIntegerOutOfItsRangeNamesItsOwnField() throws {
        let device = try api.makeDevice(key: key)
        let battery = api.send(.patch, "/v1/devices/\(device)/conditions", key: key,
                               json: #"{"charging": true, "batteryLevel": 18446744073709551616}"#)
        #expect(battery.status == 422)
        #expect(Self.issues(battery) == [
            "batteryLevel: must be an integer from -9223372036854775808 to 9223372036854775807, not 18446744073709551616",
        ])
        let fraction = api.send(.patch, "/v1/devices/\(device)/conditions", key: key, json: #"{"batteryLevel": 50.5, "locked": "no"}"#)
        #expect(fraction.errorFields == ["batteryLevel", "locked"])
        let devices = api.send(.post, "/v1/forecasts", key: key, json: Self.forecast(#""seed": 1, "devices": 1e30, "days": 1"#))
        #expect(devices.errorFields == ["devices"])
        // A number as large is fine where the field takes any number (`clock.scale` is not an integer).
        let scale = api.send(.post, "/v1/devices", key: key, json: #"{"name": "a", "clock": {"scale": 1e30}, "seed": -1}"#)
        #expect(scale.errorFields == ["seed"], "\(scale.text)")
    }

    @Test func validBodiesAreAnsweredAsBefore() throws {
        let device = api.send(.post, "/v1/devices", key: key, json: #"""
            {"name": "a", "model": "iPhone 15", "osVersion": "17.0", "multitaskingSupported": true,
             "clock": {"mode": "manual", "scale": 1.5}, "conditions": {"batteryLevel": 80, "charging": false},
             "seed": 18446744073709551615, "policy": {"opportunityInterval": 900}}
            """#)
        #expect(device.status == 201, "\(device.text)")
        #expect(api.send(.post, "/v1/forecasts", key: key, json: Self.forecast()).status == 202)
        // A field read two ways (`"never"` or seconds) is no issue either way, though the first way fails.
        #expect(JSONFieldIssues.every(FetchIntervalBody.self, in: Array(#"{"interval": 900}"#.utf8)).isEmpty)
        #expect(JSONFieldIssues.every(FetchIntervalBody.self, in: Array(#"{"interval": "never"}"#.utf8)).isEmpty)
        #expect(JSONFieldIssues.every(CreateDeviceRequest.self, in: Array(#"{"name": "a", "seed": 1.0, "policy": {}}"#.utf8)).isEmpty)
        #expect(JSONFieldIssues.every(ForecastRequest.self, in: Array(Self.forecast().utf8)).isEmpty)
    }

    @Test func theTreeKeepsANumbersDigitsAndDecodesEscapedNames() {
        let tree = JSONTree.parse(Array(#" {"seed": 18446744073709551616, "n\u00e4me": ["a\"b", true, null, -1.5e3]} "#.utf8))
        #expect(tree == .object([
            "seed": .number("18446744073709551616"),
            "näme": .array([.string("a\"b"), .bool(true), .null, .number("-1.5e3")]),
        ]))
        #expect(JSONTree.parse(Array("{\"a\": 1} x".utf8)) == nil, "a text after the value")
        #expect(JSONTree.parse(Array(repeating: UInt8(ascii: "["), count: 600) + Array(repeating: UInt8(ascii: "]"), count: 600)) == nil,
                "deeper than the decoder reads")
    }

    @Test func aBodyThatIsNotJSONStillSaysWhereItStops() {
        let broken = api.send(.post, "/v1/devices", key: key, json: "{\"name\": \"a\",\n \"seed\": x}")
        #expect(broken.status == 400)
        #expect(broken.problemCode == "malformedRequest")
        #expect(broken.json["detail"] as? String == "The body is not valid JSON at line 2, column 10 (byte 23).")
    }

    @Test func theAnswerMeetsTheContractsProblemSchema() throws {
        let answer = api.send(.post, "/v1/devices", key: key, json: #"{"name": 5, "conditions": {"batteryLevel": 1e30}}"#)
        #expect(answer.status == 422)
        #expect(try ContractSchema.load().problems(answer.body, against: "Problem") == [])
    }

    @Test func aScenarioStepsWireBodyNamesEveryWrongField() {
        let scenario = #"{"name": "s", "device": {"model": 5, "multitaskingSupported": "yes"}, "apps": [{"bundleId": "com.example.a"}], "steps": []}"#
        let answer = api.send(.post, "/v1/scenarios/run", key: key, json: scenario)
        #expect(answer.status == 422, "\(answer.text)")
        #expect(answer.errorFields.filter { $0.hasPrefix("device") } == ["device.model", "device.multitaskingSupported"], "\(answer.text)")
    }
}
