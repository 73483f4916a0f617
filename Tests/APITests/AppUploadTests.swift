import Foundation
import Testing
@testable import API

/// `POST …/apps` with what real projects have: an Info.plist with build settings, an .xcconfig, an .ipa.
@Suite struct AppUploadTests {
    let api: APIHarness
    let key: String
    let device: String
    init() throws {
        (api, key, device) = try APIHarness.withDevice()
    }

    var apps: String { "/v1/devices/\(device)/apps" }

    /// An Info.plist as a new Xcode project's is, with a refresh task named after the bundle identifier.
    static let templatePlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
          <key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
          <key>CFBundleName</key><string>$(PRODUCT_NAME)</string>
          <key>CFBundleExecutable</key><string>${EXECUTABLE_NAME}</string>
          <key>CFBundleShortVersionString</key><string>$(MARKETING_VERSION)</string>
          <key>UIBackgroundModes</key><array><string>fetch</string><string>processing</string></array>
          <key>BGTaskSchedulerPermittedIdentifiers</key>
          <array><string>$(PRODUCT_BUNDLE_IDENTIFIER).refresh</string></array>
        </dict></plist>
        """

    func post(_ target: String, _ body: [UInt8], _ type: String) -> TestResponse {
        api.send(.post, target, key: key, body: body, headers: ["Content-Type": type])
    }

    @Test func aPlistWithBuildSettingsAsksForTheBundleIdThenExpandsEveryString() {
        let refused = post(apps, Array(Self.templatePlist.utf8), "application/x-plist")
        #expect(refused.status == 422)
        // Both keys the emulation needs name the setting; how to pass it is said once per key.
        #expect(refused.errorFields == ["BGTaskSchedulerPermittedIdentifiers[0]", "CFBundleIdentifier"])
        #expect(refused.text.contains("?bundleId="))

        let created = post("\(apps)?bundleId=org.example.Weather", Array(Self.templatePlist.utf8), "application/x-plist")
        #expect(created.status == 201)
        #expect(created.json["bundleId"] as? String == "org.example.Weather")
        #expect(created.json["displayName"] as? String == "Weather")
        #expect((created.json["infoPlist"] as? [String: Any])?["BGTaskSchedulerPermittedIdentifiers"] as? [String]
            == ["org.example.Weather.refresh"])
        #expect(created.json["launchHandlers"] as? [String] == ["org.example.Weather.refresh"])
        #expect(created.json["unresolvedBuildSettings"] as? [String] == ["MARKETING_VERSION"])
    }

    @Test func querySettingsComeBeforeTheBodysBuildSettings() {
        let body = """
            {"bundleId":"org.example.app","displayName":"$(APP_NAME)","buildSettings":{"APP_NAME":"Body","SUFFIX":"sync"},
             "infoPlist":{"UIBackgroundModes":["processing"],
              "BGTaskSchedulerPermittedIdentifiers":["$(PRODUCT_BUNDLE_IDENTIFIER).$(SUFFIX)"]}}
            """
        let created = api.send(.post, "\(apps)?setting=APP_NAME%3DQuery", key: key, json: body)
        #expect(created.status == 201)
        #expect(created.json["displayName"] as? String == "Query")
        #expect((created.json["infoPlist"] as? [String: Any])?["BGTaskSchedulerPermittedIdentifiers"] as? [String]
            == ["org.example.app.sync"])
    }

    @Test func badSettingsAreRefusedByName() {
        #expect(post("\(apps)?setting=NOVALUE", Array(Self.templatePlist.utf8), "application/x-plist").errorFields == ["setting"])
        #expect(post("\(apps)?setting=1BAD%3Dx", Array(Self.templatePlist.utf8), "application/x-plist").errorFields == ["setting"])
        #expect(post("\(apps)?bundleId=not%20valid", Array(Self.templatePlist.utf8), "application/x-plist").errorFields
            == ["bundleId"])
        let json = api.send(.post, apps, key: key, json: #"{"bundleId":"org.example.a","buildSettings":{"A-B":"x"}}"#)
        #expect(json.status == 422)
        #expect(json.errorFields == ["buildSettings.A-B"])
        let empty = api.send(.post, apps, key: key, json: #"{"bundleId":"org.example.a","buildSettings":{"":"x"}}"#)
        #expect(empty.errorFields == ["buildSettings"])
        let long = String(repeating: "x", count: 4097)
        #expect(post("\(apps)?setting=LONG%3D\(long)", Array(Self.templatePlist.utf8), "application/x-plist").errorFields
            == ["setting"])
        let mismatch = api.send(.post, "\(apps)?bundleId=org.example.b", key: key, json: #"{"bundleId":"org.example.a"}"#)
        #expect(mismatch.errorFields == ["bundleId"])
    }

    @Test func anUnresolvedSettingInTheTaskIdentifiersIsRefused() {
        let body = #"{"bundleId":"org.example.a","infoPlist":{"BGTaskSchedulerPermittedIdentifiers":["$(TASK_PREFIX).refresh"]}}"#
        let refused = api.send(.post, apps, key: key, json: body)
        #expect(refused.status == 422)
        #expect(refused.errorFields == ["infoPlist.BGTaskSchedulerPermittedIdentifiers[0]"])
        #expect(refused.text.contains("?setting=TASK_PREFIX=VALUE"))
    }

    // MARK: multipart/form-data

    func form(_ parts: [(name: String, filename: String, body: String)], boundary: String = "bgemu-boundary-7MA4YWxk")
        -> [UInt8]
    {
        var out = "preamble to ignore\r\n"
        for part in parts {
            out += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"; filename=\"\(part.filename)\"\r\n"
            out += "Content-Type: application/octet-stream\r\n\r\n\(part.body)\r\n"
        }
        return Array((out + "--\(boundary)--\r\n").utf8)
    }

    @Test func aFormWithXCConfigFilesFollowsTheirIncludes() {
        let body = form([
            (name: "infoPlist", filename: "Info.plist", body: Self.templatePlist),
            (name: "xcconfig", filename: "App.xcconfig",
             body: "#include \"Shared/Base.xcconfig\"\n#include \"Signing.xcconfig\"\nPRODUCT_NAME = Weather Now"),
            (name: "xcconfig", filename: "Base.xcconfig",
             body: "PRODUCT_BUNDLE_IDENTIFIER = org.example.$(PRODUCT_NAME:rfc1034identifier:lower)\nMARKETING_VERSION = 2.1"),
        ])
        let created = post(apps, body, "multipart/form-data; boundary=\"bgemu-boundary-7MA4YWxk\"")
        #expect(created.status == 201)
        #expect(created.json["bundleId"] as? String == "org.example.weather-now")
        #expect(created.json["displayName"] as? String == "Weather Now")
        #expect(created.json["unresolvedBuildSettings"] as? [String] == [])
        let notes = created.json["buildSettingNotes"] as? [String] ?? []
        #expect(notes.count == 1 && notes[0].contains("Signing.xcconfig"))
    }

    @Test func aFormNeedsItsPlistAndKnowsItsParts() {
        let type = "multipart/form-data; boundary=bgemu-boundary-7MA4YWxk"
        #expect(post(apps, form([(name: "xcconfig", filename: "a.xcconfig", body: "A = 1")]), type).errorFields == ["infoPlist"])
        let unknown = form([(name: "infoPlist", filename: "Info.plist", body: Self.templatePlist),
                            (name: "icon", filename: "icon.png", body: "x")])
        #expect(post("\(apps)?bundleId=org.example.a", unknown, type).errorFields == ["icon"])
        #expect(post(apps, Array("no boundary here".utf8), type).status == 400)
        #expect(post(apps, form([]), "multipart/form-data").status == 400)
    }

    // MARK: .ipa and zipped .app

    func ipa(bundleId: String = "org.example.Weather") throws -> [UInt8] {
        try ZipSamples.zip([
            ("Payload/Weather.app/Info.plist", try ZipSamples.plist([
                "CFBundleIdentifier": bundleId, "CFBundleName": "Weather", "UIBackgroundModes": ["fetch", "processing"],
                "BGTaskSchedulerPermittedIdentifiers": ["\(bundleId).refresh"],
            ])),
            ("Payload/Weather.app/Weather", Array(repeating: 0xCF, count: 4096)),
            ("Payload/Weather.app/PlugIns/Widget.appex/Info.plist", try ZipSamples.plist(["CFBundleIdentifier": "\(bundleId).widget"])),
            ("Payload/Weather.app/Frameworks/Kit.framework/Info.plist", try ZipSamples.plist(["CFBundleIdentifier": "org.example.Kit"])),
        ])
    }

    @Test func anIPAInstallsItsMainApp() throws {
        let created = post(apps, try ipa(), "application/zip")
        #expect(created.status == 201)
        #expect(created.json["bundleId"] as? String == "org.example.Weather")
        #expect(created.json["launchHandlers"] as? [String] == ["org.example.Weather.refresh"])
        // An octet stream that holds a zip is read as one.
        let again = post(apps, try ipa(bundleId: "org.example.Other"), "application/octet-stream")
        #expect(again.status == 201)
        #expect(again.json["bundleId"] as? String == "org.example.Other")
    }

    @Test func aZippedAppFolderInstalls() throws {
        let zip = try ZipSamples.zip([
            ("__MACOSX/Sky.app/._Info.plist", [0, 5, 22, 7]),
            ("Sky.app/Info.plist", try ZipSamples.plist(["CFBundleIdentifier": "org.example.Sky", "UIBackgroundModes": ["audio"]])),
        ])
        let created = post(apps, zip, "application/zip")
        #expect(created.status == 201)
        #expect(created.json["bundleId"] as? String == "org.example.Sky")
    }

    @Test func unsafeArchivesAreRefused() throws {
        let plist = try ZipSamples.plist(["CFBundleIdentifier": "org.example.x"])
        let climbing = try ZipSamples.zip([("Payload/X.app/Info.plist", plist), ("Payload/../../etc/cron.d/x", [1])])
        #expect(post(apps, climbing, "application/zip").errorFields == ["archive"])
        let absolute = try ZipSamples.zip([("/Payload/X.app/Info.plist", plist)])
        #expect(post(apps, absolute, "application/zip").errorFields == ["archive"])
        #expect(post(apps, Array("PK\u{3}\u{4} not really".utf8), "application/zip").errorFields == ["archive"])
        #expect(post(apps, Array("not a zip".utf8), "application/zip").errorFields == ["archive"])
        let none = try ZipSamples.zip([("README.txt", Array("hello".utf8))])
        #expect(post(apps, none, "application/zip").errorFields == ["archive"])
        let two = try ZipSamples.zip([("A.app/Info.plist", plist), ("B.app/Info.plist", plist)])
        #expect(post(apps, two, "application/zip").errorFields == ["archive"])
    }

    @Test func zipBombsAreRefusedBeforeTheyInflate() throws {
        // 2 MiB of zeros deflate to a few KiB: the Info.plist's own bound stops it while inflating.
        let bomb = try ZipSamples.zip([("Payload/X.app/Info.plist", Array(repeating: 0, count: 2 << 20))])
        #expect(bomb.count < 64 << 10)
        let refused = post(apps, bomb, "application/zip")
        #expect(refused.errorFields == ["archive"])
        #expect(refused.text.contains("MiB"))
        // An archive whose entries declare more than 8 GiB is refused from its directory alone.
        let plist = try ZipSamples.plist(["CFBundleIdentifier": "org.example.x"])
        let declared = ZipSamples.declaringUncompressedSize(
            try ZipSamples.zip([("Payload/X.app/Info.plist", plist), ("Payload/X.app/a", [1]), ("Payload/X.app/b", [2])]),
            0xFFFF_FFF0)
        let lying = post(apps, declared, "application/zip")
        #expect(lying.errorFields == ["archive"])
        #expect(lying.text.contains("GiB"))
    }

    @Test func onlyTheAppsRouteTakesUploadSizedBodies() {
        #expect(APIRouter.isUpload(.post, "/v1/devices/dev_1/apps"))
        #expect(!APIRouter.isUpload(.get, "/v1/devices/dev_1/apps"))
        #expect(!APIRouter.isUpload(.post, "/v1/devices//apps"))
        #expect(!APIRouter.isUpload(.post, "/v1/devices/dev_1/apps/x/launch"))
        #expect(!APIRouter.isUpload(.post, "/v1/devices"))
        #expect(!APIRouter.isUpload(.post, "/v1/devices/apps"))  // no id
        #expect(!APIRouter.isUpload(.post, "/v1/devices/a/b/apps"))  // two segments
        #expect(!APIRouter.isUpload(.post, "/v2/devices/dev_1/apps"))
        #expect(APIRouter.isUpload(.post, "/v1/devices/dev%2F1/apps"))  // one segment, as the router sees it
        #expect(APIRouter.isUpload(.post, "/v1/admin/tenants/import"))
    }
}
