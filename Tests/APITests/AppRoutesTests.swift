import Foundation
import Testing
@testable import API

@Suite struct AppRoutesTests {
    let api: APIHarness
    let key: String
    let device: String
    init() throws {
        (api, key, device) = try APIHarness.withDevice()
    }

    var apps: String { "/v1/devices/\(device)/apps" }

    @Test func installFromJSON() throws {
        let body = """
            {"bundleId":"com.example.weather","infoPlist":{"UIBackgroundModes":["fetch","processing"],
             "BGTaskSchedulerPermittedIdentifiers":["com.example.weather.refresh"]}}
            """
        let created = api.send(.post, apps, key: key, json: body)
        #expect(created.status == 201)
        #expect(created.headers["Location"] == "\(apps)/com.example.weather")
        #expect(created.json["state"] as? String == "notRunning")
        #expect(created.json["launchHandlers"] as? [String] == ["com.example.weather.refresh"])
        #expect(created.json.keys.contains("backgroundTimeRemaining") && created.json["backgroundTimeRemaining"] is NSNull)
        let shown = api.send(.get, "\(apps)/com.example.weather", key: key)
        #expect(shown.status == 200)
        #expect((shown.json["infoPlist"] as? [String: Any])?["UIBackgroundModes"] as? [String] == ["fetch", "processing"])
        #expect(api.send(.get, "/v1/devices/\(device)", key: key).json["appCount"] as? Int == 1)
    }

    @Test func queryLaunchHandlersJoinAJSONBodysOwn() {
        let body = """
            {"bundleId":"com.example.both","launchHandlers":["com.example.both.a"],"infoPlist":{
             "UIBackgroundModes":["fetch","processing"],
             "BGTaskSchedulerPermittedIdentifiers":["com.example.both.a","com.example.both.b","com.example.both.c"]}}
            """
        let created = api.send(.post, "\(apps)?launchHandlers=com.example.both.b,com.example.both.a", key: key, json: body)
        #expect(created.status == 201)
        #expect(created.json["launchHandlers"] as? [String] == ["com.example.both.a", "com.example.both.b"])
        let none = api.send(.post, "\(apps)?launchHandlers=", key: key, json: #"{"bundleId":"com.example.none"}"#)
        #expect(none.json["launchHandlers"] as? [String] == [])
    }

    @Test func installFromXMLAndBinaryPlist() throws {
        let xml = api.send(.post, apps, key: key, body: Array(PlistSamples.xml(bundleId: "com.example.xml").utf8),
                           headers: ["Content-Type": "application/x-plist"])
        #expect(xml.status == 201)
        #expect(xml.json["bundleId"] as? String == "com.example.xml")
        #expect(xml.json["displayName"] as? String == "Sample")
        let binary = try PlistSamples.binary(bundleId: "com.example.binary")
        #expect(binary.starts(with: Array("bplist00".utf8)))
        let bin = api.send(.post, apps, key: key, body: binary, headers: ["Content-Type": "application/x-plist"])
        #expect(bin.status == 201)
        #expect(bin.json["bundleId"] as? String == "com.example.binary")
        #expect((bin.json["infoPlist"] as? [String: Any])?["UIBackgroundModes"] as? [String] == ["audio", "fetch"])
        let garbage = api.send(.post, apps, key: key, body: [1, 2, 3], headers: ["Content-Type": "application/x-plist"])
        #expect(garbage.status == 422)
    }

    @Test func installingTwiceConflicts() {
        #expect(api.send(.post, apps, key: key, json: #"{"bundleId":"com.example.a"}"#).status == 201)
        let again = api.send(.post, apps, key: key, json: #"{"bundleId":"com.example.a"}"#)
        #expect(again.status == 409 && again.problemCode == "alreadyInstalled")
    }

    @Test func unknownBackgroundModeListsTheValidOnes() {
        let response = api.send(.post, apps, key: key,
                                json: #"{"bundleId":"com.example.a","infoPlist":{"UIBackgroundModes":["warp"]}}"#)
        #expect(response.status == 422)
        #expect(response.errorFields == ["infoPlist.UIBackgroundModes[0]"])
        #expect(response.text.contains("remote-notification") && response.text.contains("bluetooth-central"))
    }

    @Test func backgroundModesReadAndReplace() {
        _ = api.send(.post, apps, key: key, json: #"{"bundleId":"com.example.a"}"#)
        let path = "\(apps)/com.example.a/background-modes"
        #expect(api.send(.get, path, key: key).json["backgroundModes"] as? [String] == [])
        let put = api.send(.put, path, key: key, json: #"{"backgroundModes":["audio","location"]}"#)
        #expect(put.status == 200)
        #expect(api.send(.get, path, key: key).json["backgroundModes"] as? [String] == ["audio", "location"])
        let bad = api.send(.put, path, key: key, json: #"{"backgroundModes":["audio","gps"]}"#)
        #expect(bad.status == 422 && bad.errorFields == ["backgroundModes[1]"])
        #expect(api.send(.get, path, key: key).json["backgroundModes"] as? [String] == ["audio", "location"])
    }

    @Test func settingsSwitchBackgroundAppRefresh() {
        _ = api.send(.post, apps, key: key, json: #"{"bundleId":"com.example.a"}"#)
        let patched = api.send(.patch, "\(apps)/com.example.a/settings", key: key, json: #"{"backgroundAppRefresh":false}"#)
        #expect(patched.status == 200 && patched.json["backgroundAppRefresh"] as? Bool == false)
        let app = api.send(.get, "\(apps)/com.example.a", key: key)
        #expect((app.json["settings"] as? [String: Any])?["backgroundAppRefresh"] as? Bool == false)
    }

    @Test func uninstallAndListPages() {
        for i in 0..<3 { _ = api.send(.post, apps, key: key, json: #"{"bundleId":"com.example.a\#(i)"}"#) }
        let page = api.send(.get, "\(apps)?limit=2", key: key)
        #expect(page.items.count == 2 && page.json["nextCursor"] as? String != nil)
        #expect(api.send(.delete, "\(apps)/com.example.a1", key: key).status == 204)
        #expect(api.send(.get, "\(apps)/com.example.a1", key: key).status == 404)
        #expect(api.send(.get, apps, key: key).items.compactMap { $0["bundleId"] as? String } == ["com.example.a0", "com.example.a2"])
    }

    @Test func appsOfAnotherTenantsDeviceAreNotFound() throws {
        _ = api.send(.post, apps, key: key, json: #"{"bundleId":"com.example.a"}"#)
        let other = try api.makeTenant("globex").key
        #expect(api.send(.get, "\(apps)/com.example.a", key: other).status == 404)
        #expect(api.send(.post, apps, key: other, json: #"{"bundleId":"com.example.b"}"#).status == 404)
    }
}

/// Property lists built for the API tests.
enum PlistSamples {
    static func xml(bundleId: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
          <key>CFBundleIdentifier</key><string>\(bundleId)</string>
          <key>CFBundleName</key><string>Sample</string>
          <key>UIBackgroundModes</key><array><string>fetch</string></array>
        </dict></plist>
        """
    }

    static func binary(bundleId: String) throws -> [UInt8] {
        let plist: [String: Any] = ["CFBundleIdentifier": bundleId, "UIBackgroundModes": ["audio", "fetch"]]
        return Array(try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
    }
}
