import Foundation
import Testing
@testable import Emulation

/// The one rule for a build setting a client gives (an upload's query, `buildSettings` and `.xcconfig` files, a
/// forecast's `app.buildSettings`): a setting's name of at most 255 bytes, a value of at most 4,096, 500 at most.
struct ClientBuildSettingsTests {
    @Test func aSettingNeedsASettingsNameOfAtMost255Bytes() {
        #expect(BuildSettings.clientSettingProblem(name: "PRODUCT_NAME", value: "News") == nil)
        #expect(BuildSettings.clientSettingProblem(name: "_x1", value: "") == nil)
        #expect(BuildSettings.clientSettingProblem(name: String(repeating: "A", count: 255), value: "v") == nil)
        let notAName = "\"\" is not a build setting name (a letter or _, then letters, digits and _)"
        #expect(BuildSettings.clientSettingProblem(name: "", value: "x") == notAName)
        #expect(BuildSettings.clientSettingProblem(name: "bad-name", value: "x")
            == "\"bad-name\" is not a build setting name (a letter or _, then letters, digits and _)")
        #expect(BuildSettings.clientSettingProblem(name: "1X", value: "x") != nil)
        #expect(BuildSettings.clientSettingProblem(name: "Ä", value: "x") != nil)
        // Quoted at most 100 characters long.
        let long = String(repeating: "A", count: 256)
        #expect(BuildSettings.clientSettingProblem(name: long, value: "v")
            == "\"\(long.prefix(100))\" is not a build setting name (a letter or _, then letters, digits and _)")
    }

    @Test func aValueIsAtMost4096UTF8Bytes() {
        #expect(BuildSettings.clientSettingProblem(name: "V", value: String(repeating: "x", count: 4096)) == nil)
        #expect(BuildSettings.clientSettingProblem(name: "V", value: String(repeating: "x", count: 4097))
            == "V is longer than 4096 bytes")
        // Bytes, not characters: 2,049 two-byte characters are 4,098 bytes.
        #expect(BuildSettings.clientSettingProblem(name: "V", value: String(repeating: "é", count: 2049)) != nil)
    }

    @Test func anObjectOfSettingsNamesEveryBadOneUnderItsFieldAndAtMost500() {
        let bad = ["": "x", "bad-name": "x", "GOOD": "x", "LONG": String(repeating: "x", count: 4097)]
        let issues = BuildSettings.clientSettingIssues(bad, field: "app.buildSettings")
        #expect(issues.map(\.field) == ["app.buildSettings", "app.buildSettings.LONG", "app.buildSettings.bad-name"])
        #expect(issues[0].message.hasPrefix("\"\" is not a build setting name"))

        var settings = [String: String]()
        for i in 0..<BuildSettings.maximumClientSettings { settings["S\(i)"] = "v" }
        #expect(BuildSettings.maximumClientSettings == 500)
        #expect(BuildSettings.clientSettingIssues(settings, field: "buildSettings").isEmpty)
        settings["S500"] = "v"
        #expect(BuildSettings.clientSettingIssues(settings, field: "buildSettings")
            == [FieldIssue("buildSettings", "at most 500 settings")])
    }
}
