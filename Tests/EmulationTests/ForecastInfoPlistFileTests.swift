import Foundation
import Testing
@testable import Emulation

/// A forecast's app may be given by its real `Info.plist` file (XML text, or a binary property list in Base64),
/// read as an upload to the `apps` route reads it: build settings expanded, the bundle id from
/// `CFBundleIdentifier` when not given. Files from open-source apps (Tests/Fixtures/RealProjects).
@Suite struct ForecastInfoPlistFileTests {
    private static func request(app: [String: Any], pushes: [[String: Any]] = []) throws -> ForecastRequest {
        let body: [String: Any] = ["seed": 3, "devices": 40, "days": 2, "app": app, "pushes": pushes]
        return try JSONDecoder().decode(ForecastRequest.self, from: JSONSerialization.data(withJSONObject: body))
    }

    private static func issues(_ body: () throws -> Any) -> [FieldIssue] {
        do {
            _ = try body()
        } catch EmulationError.invalid(let issues) {
            return issues
        } catch {
            return [FieldIssue("?", "\(error)")]
        }
        return []
    }

    @Test func netNewsWiresInfoPlistGivesItsModesAndIdentifierAndForecastsItsRefresh() throws {
        let app: [String: Any] = [
            "bundleId": "com.ranchero.NetNewsWire-Evergreen.iOS",
            "infoPlist": try RealProjects.text("netnewswire-ios-Info.plist"),
            "atLaunch": ["submit": [["kind": "appRefresh", "identifier": "com.ranchero.NetNewsWire.FeedRefresh"]]],
        ]
        let request = try Self.request(app: app)
        #expect(request.app.bundleId == "com.ranchero.NetNewsWire-Evergreen.iOS")
        #expect(request.app.infoPlist.UIBackgroundModes == ["fetch", "processing", "remote-notification"])
        #expect(request.app.infoPlist.BGTaskSchedulerPermittedIdentifiers == ["com.ranchero.NetNewsWire.FeedRefresh"])
        #expect(request.validate().isEmpty)
        let report = try Forecast.run(request)
        #expect(report.result.appRefresh != nil)
        #expect(report.result.devices == 40)
    }

    @Test func aBinaryPropertyListInBase64ReadsAsItsXMLDoes() throws {
        let xml = try RealProjects.bytes("netnewswire-ios-Info.plist")
        let plist = try PropertyListSerialization.propertyList(from: Data(xml), format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        #expect(binary.starts(with: Array("bplist00".utf8)))
        let atLaunch: [String: Any] = ["fetchInterval": 900]
        let fromXML = try Self.request(app: [
            "bundleId": "com.ranchero.NetNewsWire-Evergreen.iOS", "infoPlist": String(decoding: xml, as: UTF8.self),
            "atLaunch": atLaunch,
        ])
        let fromBinary = try Self.request(app: [
            "bundleId": "com.ranchero.NetNewsWire-Evergreen.iOS", "infoPlist": binary.base64EncodedString(),
            "atLaunch": atLaunch,
        ])
        #expect(fromBinary == fromXML)
    }

    @Test func mullvadsIdentifiersComeFromTheBuildSettingsGivenAndAreNamedWhenMissing() throws {
        let file = try RealProjects.text("mullvad-ios-Info.plist")
        let app: [String: Any] = [
            "bundleId": "net.mullvad.MullvadVPN", "infoPlist": file,
            "buildSettings": ["APPLICATION_IDENTIFIER": "net.mullvad.MullvadVPN"],
            "atLaunch": ["submit": [["kind": "appRefresh", "identifier": "net.mullvad.MullvadVPN.AppRefresh"]]],
        ]
        let request = try Self.request(app: app)
        #expect(request.app.infoPlist.BGTaskSchedulerPermittedIdentifiers.contains("net.mullvad.MullvadVPN.AppRefresh"))
        #expect(request.validate().isEmpty)

        var without = app
        without["buildSettings"] = nil
        let issues = Self.issues { try Self.request(app: without) }
        #expect(issues.contains { $0.field.hasPrefix("app.infoPlist.BGTaskSchedulerPermittedIdentifiers") }, "\(issues)")
        // Told how to pass it in a forecast request, not with an upload's query.
        #expect(issues.allSatisfy { !$0.message.contains("?setting") && !$0.message.contains("xcconfig") }, "\(issues)")
        #expect(issues.contains { $0.message.contains("pass it in app.buildSettings as APPLICATION_IDENTIFIER=VALUE") }, "\(issues)")
    }

    @Test func aByteOrderMarkOrBlankLinesBeforeTheXMLAndBase64WithLineBreaksAreRead() throws {
        let xml = try RealProjects.text("netnewswire-ios-Info.plist")
        let atLaunch: [String: Any] = ["fetchInterval": 900]
        let plain = try Self.request(app: ["bundleId": "com.ranchero.NetNewsWire-Evergreen.iOS", "infoPlist": xml, "atLaunch": atLaunch])
        let led = try Self.request(app: [
            "bundleId": "com.ranchero.NetNewsWire-Evergreen.iOS", "infoPlist": "\u{FEFF}\n\n" + xml, "atLaunch": atLaunch,
        ])
        #expect(led == plain)
        let wrapped = Data(xml.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
        #expect(wrapped.contains("\n"))
        let fromBase64 = try Self.request(app: [
            "bundleId": "com.ranchero.NetNewsWire-Evergreen.iOS", "infoPlist": wrapped, "atLaunch": atLaunch,
        ])
        #expect(fromBase64 == plain)
    }

    @Test func theBundleIdComesFromTheFileWhenItWritesItAndIsRequiredWhenItLeavesItToASetting() throws {
        let literal = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>org.example.literal</string>
            <key>UIBackgroundModes</key><array><string>fetch</string></array>
            </dict></plist>
            """
        let request = try Self.request(app: ["infoPlist": literal, "atLaunch": ["fetchInterval": "minimum"]])
        #expect(request.app.bundleId == "org.example.literal")

        let setting = try RealProjects.text("netnewswire-ios-Info.plist")
        let issues = Self.issues { try Self.request(app: ["infoPlist": setting, "atLaunch": ["fetchInterval": 900]]) }
        #expect(issues.contains { $0.field == "app.infoPlist.CFBundleIdentifier" }, "\(issues)")
    }

    @Test func aStringThatIsNoPropertyListAndSettingsWithoutAFileAreRefusedByName() throws {
        let notPlist = Self.issues { try Self.request(app: ["bundleId": "a.b", "infoPlist": "not a plist"]) }
        #expect(notPlist.map(\.field) == ["app.infoPlist"])
        let badXML = Self.issues { try Self.request(app: ["bundleId": "a.b", "infoPlist": "<plist><dict>"]) }
        #expect(badXML.map(\.field) == ["app.infoPlist"])
        let stray = Self.issues {
            try Self.request(app: ["bundleId": "a.b", "infoPlist": ["UIBackgroundModes": ["fetch"]], "buildSettings": ["A": "b"]])
        }
        #expect(stray.map(\.field) == ["app.buildSettings"])
    }

    @Test func aForecastWithNothingToCountIsRefusedNamingWhatToGive() throws {
        let request = try Self.request(app: ["bundleId": "a.b", "infoPlist": ["UIBackgroundModes": ["fetch"]]])
        #expect(request.validate().contains { $0.field == "app.atLaunch" })
        let withPushes = try Self.request(
            app: ["bundleId": "a.b", "infoPlist": ["UIBackgroundModes": ["remote-notification"]]], pushes: [["everyMinutes": 60]])
        #expect(!withPushes.validate().contains { $0.field == "app.atLaunch" })
    }
}

/// A forecast of what the iOS version lacks is refused by name (the engine would only count refusals).
@Suite struct ForecastVersionTests {
    private static func request(os: String, submit: Bool, fetch: Bool) throws -> ForecastRequest {
        var atLaunch: [String: Any] = [:]
        if submit { atLaunch["submit"] = [["kind": "appRefresh", "identifier": "a.b.refresh"]] }
        if fetch { atLaunch["fetchInterval"] = "minimum" }
        let body: [String: Any] = ["devices": 5, "days": 1, "osVersion": os, "app": [
            "bundleId": "a.b", "atLaunch": atLaunch,
            "infoPlist": ["UIBackgroundModes": ["fetch"], "BGTaskSchedulerPermittedIdentifiers": ["a.b.refresh"]]]]
        return try JSONDecoder().decode(ForecastRequest.self, from: JSONSerialization.data(withJSONObject: body))
    }

    @Test func R15_BGTaskSchedulerSubmissionsBeforeIOS13AreRefusedAndFetchStaysAllowedFromIOS7() throws {
        let ios12 = try Self.request(os: "12.0", submit: true, fetch: true).validate().map(\.field)
        #expect(ios12.contains("app.atLaunch.submit"))
        #expect(!ios12.contains("app.atLaunch.fetchInterval"))
        #expect(try Self.request(os: "13.0", submit: true, fetch: true).validate().isEmpty)
    }

    @Test func R28_backgroundFetchBeforeIOS7IsRefused() throws {
        let ios6 = try Self.request(os: "6.0", submit: false, fetch: true).validate().map(\.field)
        #expect(ios6.contains("app.atLaunch.fetchInterval"))
        #expect(try Self.request(os: "7.0", submit: false, fetch: true).validate().isEmpty)
    }
}
