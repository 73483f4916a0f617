import Foundation
import Testing
@testable import API

/// Bodies read as I-JSON (RFC 7493): a name given twice, a body that is not an object, control characters in
/// identifiers — each refused with a problem that says what is wrong.
@Suite struct JSONBodyTests {
    let api: APIHarness
    let key: String
    init() throws {
        api = try APIHarness()
        key = try api.makeTenant("acme").key
    }

    @Test func aMemberNamedTwiceIsMalformed() {
        let twice = api.send(.post, "/v1/devices", key: key, json: #"{"name":"a","name":"b"}"#)
        #expect(twice.status == 400)
        #expect(twice.problemCode == "malformedRequest")
        #expect(twice.text.contains("name twice"))
        // The same name spelt with an escape, and a nested one, with its path.
        let escaped = api.send(.post, "/v1/devices", key: key, json: #"{"name":"a","n\u0061me":"b"}"#)
        #expect(escaped.status == 400)
        let nested = api.send(.post, "/v1/devices", key: key,
                              json: #"{"name":"a","conditions":{"lowPowerMode":true,"lowPowerMode":false}}"#)
        #expect(nested.status == 400)
        #expect(nested.text.contains("conditions.lowPowerMode"))
        // Distinct names in sibling objects are fine.
        #expect(JSONDuplicateMembers.first(in: Array(#"[{"a":1},{"a":2}]"#.utf8)) == nil)
        #expect(JSONDuplicateMembers.first(in: Array(#"{"a":{"b":1},"c":[{"b":1,"b":2}]}"#.utf8)) == "c[0].b")
        #expect(JSONDuplicateMembers.first(in: Array(#"{"a\"b":1,"a\u0022b":2}"#.utf8)) == #"a"b"#)
        // A string value with escaped quotes and braces is stepped over whole; names in other scripts compare as
        // decoded text (an escaped spelling of the same name is the same name).
        #expect(JSONDuplicateMembers.first(in: Array(#"{"v":"}\",\"v\":{","w":[1,"]"],"v":2}"#.utf8)) == "v")
        #expect(JSONDuplicateMembers.first(in: Array(#"{"v":"a\\","w":1}"#.utf8)) == nil)
        #expect(JSONDuplicateMembers.first(in: Array(#"{"nämé":1,"n\u00e4m\u00e9":2}"#.utf8)) == "nämé")
        #expect(JSONDuplicateMembers.first(in: Array(#"{"x":{"ü":[{"a":true,"a":null}]}}"#.utf8)) == "x.ü[0].a")
        // A hostile nesting is not followed (no stack is spent on it); the decoder refuses it.
        let deep = Array(repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(JSONDuplicateMembers.first(in: deep) == nil)
        #expect(api.send(.post, "/v1/devices", key: key, body: deep, headers: ["Content-Type": "application/json"]).status == 400)
    }

    @Test(arguments: ["[]", "5", "null", "\"text\"", "true"])
    func aBodyThatIsNotAnObjectIsToldSo(body: String) {
        let answer = api.send(.post, "/v1/devices", key: key, json: body)
        #expect(answer.status == 422, "\(answer.text)")
        #expect(answer.errorFields == ["body"])
        #expect(answer.text.contains("must be an object"), "\(answer.text)")
    }

    @Test func controlCharactersAreRefusedInIdentifiers() throws {
        let device = try api.makeDevice(key: key)
        let nul = #"{"bundleId":"com.example.a","infoPlist":{"BGTaskSchedulerPermittedIdentifiers":["com.example.a.re\u0000fresh"]}}"#
        let refused = api.send(.post, "/v1/devices/\(device)/apps", key: key, json: nul)
        #expect(refused.status == 422)
        #expect(refused.errorFields == ["infoPlist.BGTaskSchedulerPermittedIdentifiers[0]"])
        _ = api.send(.post, "/v1/devices/\(device)/apps", key: key,
                     json: #"{"bundleId":"com.example.b","infoPlist":{"UIBackgroundModes":["fetch"]}}"#)
        let session = api.send(.post, "/v1/devices/\(device)/apps/com.example.b/url-sessions", key: key,
                               json: #"{"identifier":"bg\u001b[31m"}"#)
        #expect(session.status == 422)
        #expect(session.errorFields == ["identifier"])
    }
}

/// The body's media type, read as RFC 9110 §8.3.1 has it: case-insensitive, parameters and blanks aside.
@Suite struct JSONMediaTypeTests {
    @Test func aJSONBodyIsKnownByItsMediaTypeInAnyCaseWithParametersAndBlanks() throws {
        let api = try APIHarness()
        let key = try api.makeTenant("acme").key
        for type in ["application/json", "Application/JSON; charset=utf-8", " application/json ;charset=UTF-8",
                     "application/vnd.example+json", "\tAPPLICATION/JSON"] {
            let created = api.send(.post, "/v1/devices", key: key, json: #"{"name":"x"}"#, headers: ["Content-Type": type])
            #expect(created.status == 201, "\(type)")
        }
        for type in ["text/plain", "application/jsonx", "", " ; charset=utf-8", "application/x-www-form-urlencoded"] {
            let refused = api.send(.post, "/v1/devices", key: key, json: #"{"name":"x"}"#, headers: ["Content-Type": type])
            #expect(refused.status == 415, "\(type)")
        }
    }
}
