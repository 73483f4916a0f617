import Foundation
import Testing
@testable import API

/// `POST /v1/forecasts` checks the build settings of its app's Info.plist file as an upload to `POST …/apps` checks
/// its own: a setting's name, a value of at most 4,096 bytes, 500 at most; every bad one is a `422` issue by name.
@Suite struct ForecastBuildSettingsRoutesTests {
    let api: APIHarness
    let key: String
    init() throws {
        api = try APIHarness()
        key = try api.makeTenant("acme").key
    }

    /// An Info.plist whose bundle id and refresh identifier come from a build setting.
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
          <key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
          <key>UIBackgroundModes</key><array><string>fetch</string></array>
          <key>BGTaskSchedulerPermittedIdentifiers</key><array><string>$(PRODUCT_BUNDLE_IDENTIFIER).refresh</string></array>
        </dict></plist>
        """

    /// A small forecast of that app with `settings` as its `app.buildSettings`.
    func forecast(_ settings: [String: String]) throws -> TestResponse {
        let body: [String: Any] = [
            "seed": 1, "devices": 2, "days": 1,
            "app": [
                "bundleId": "org.example.weather", "infoPlist": Self.plist, "buildSettings": settings,
                "atLaunch": ["submit": [["kind": "appRefresh", "identifier": "org.example.weather.refresh"]]],
            ] as [String: Any],
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        return api.send(.post, "/v1/forecasts", key: key, json: json)
    }

    /// The messages of a problem's field issues, in order.
    static func messages(_ response: TestResponse) -> [String] {
        (response.json["errors"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }

    @Test func anEmptyNameIsRefusedUnderAppBuildSettingsQuotingIt() throws {
        let refused = try forecast(["": "x"])
        #expect(refused.status == 422)
        #expect(refused.headers["Content-Type"] == "application/problem+json")
        #expect(refused.errorFields == ["app.buildSettings"])
        #expect(Self.messages(refused) == ["\"\" is not a build setting name (a letter or _, then letters, digits and _)"])
    }

    @Test func aNameThatIsNoSettingsNameIsRefusedByName() throws {
        let refused = try forecast(["bad-name": "x"])
        #expect(refused.status == 422)
        #expect(refused.errorFields == ["app.buildSettings.bad-name"])
        #expect(Self.messages(refused) == ["\"bad-name\" is not a build setting name (a letter or _, then letters, digits and _)"])
    }

    @Test func aValueOf4097BytesIsRefusedByNameAnd4096Pass() throws {
        let refused = try forecast(["LONG": String(repeating: "x", count: 4097)])
        #expect(refused.status == 422)
        #expect(refused.errorFields == ["app.buildSettings.LONG"])
        #expect(Self.messages(refused) == ["LONG is longer than 4096 bytes"])
        #expect(try forecast(["LONG": String(repeating: "x", count: 4096)]).status == 202)
    }

    @Test func everyBadSettingIsNamedNotOnlyTheFirst() throws {
        let refused = try forecast(["": "x", "bad-name": "x", "GOOD": "x", "LONG": String(repeating: "x", count: 4097)])
        #expect(refused.status == 422)
        #expect(refused.errorFields == ["app.buildSettings", "app.buildSettings.LONG", "app.buildSettings.bad-name"])
    }

    @Test func fiveHundredSettingsPassAnd501AreRefused() throws {
        var settings: [String: String] = [:]
        for index in 1..<500 { settings["SETTING_\(index)"] = "v" }
        settings["PRODUCT_BUNDLE_IDENTIFIER"] = "org.example.weather"
        #expect(settings.count == 500)
        settings["SETTING_500"] = "v"
        let refused = try forecast(settings)
        #expect(refused.status == 422)
        #expect(refused.errorFields == ["app.buildSettings"])
        #expect(Self.messages(refused) == ["at most 500 settings"])
        settings["SETTING_500"] = nil
        let started = try forecast(settings)
        #expect(started.status == 202, "\(started.text)")
        #expect(started.json["state"] as? String == "running")
    }
}
