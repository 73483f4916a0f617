import Testing
@testable import Emulation

/// Real projects' `Info.plist` files, as their repositories hold them (with Xcode build settings unexpanded),
/// read with the settings a user would pass.
struct RealInfoPlistTests {
    func read(_ file: String, _ values: [String: String] = [:], xcconfig: [(name: String, text: String)] = [])
        throws -> InfoPlist
    {
        var levels = [BuildSettings.Level(source: "query", values: values)]
        if !xcconfig.isEmpty { levels.append(BuildSettings.Level(source: "xcconfig", values: XCConfig(files: xcconfig).settings)) }
        return try InfoPlist.parse(RealProjects.bytes(file), settings: BuildSettings(levels))
    }

    @Test(arguments: [
        "element-ios-Info.plist", "firefox-ios-Info.plist", "home-assistant-ios-Info.plist", "loop-Info.plist",
        "mastodon-ios-Info.plist", "netnewswire-ios-Info.plist", "signal-ios-Info.plist", "vlc-ios-Info.plist",
    ])
    func withoutABundleIdEachRealPlistAsksForIt(file: String) throws {
        #expect {
            _ = try read(file)
        } throws: { error in
            guard case EmulationError.invalid(let issues) = error else { return false }
            return issues.map(\.field).contains("CFBundleIdentifier")
                && issues.allSatisfy { $0.message.contains("PRODUCT_BUNDLE_IDENTIFIER") && $0.message.contains("?bundleId=") }
        }
    }

    /// VLC names its BGTaskScheduler identifiers after its bundle identifier, as Xcode's docs suggest.
    @Test func vlcNamesItsTasksAfterItsBundleId() throws {
        let plist = try read("vlc-ios-Info.plist", ["PRODUCT_BUNDLE_IDENTIFIER": "org.videolan.vlc-ios"])
        #expect(plist.bundleId == "org.videolan.vlc-ios")
        #expect(plist.permittedIdentifiers == ["org.videolan.vlc-ios.podcast-refresh", "org.videolan.vlc-ios.podcast-download"])
        #expect(Set(plist.backgroundModes) == ["audio", "fetch", "processing"])
        #expect(plist.unresolvedBuildSettings.contains("MARKETING_VERSION"))
        #expect(!plist.unresolvedBuildSettings.contains("EXECUTABLE_NAME"))
    }

    @Test func mullvadNeedsItsXCConfigForItsTaskIdentifiers() throws {
        let settings = ["PRODUCT_BUNDLE_IDENTIFIER": "net.mullvad.MullvadVPN"]
        #expect(throws: EmulationError.self) { try read("mullvad-ios-Info.plist", settings) }
        let plist = try read("mullvad-ios-Info.plist", settings, xcconfig: [
            (name: "Base.xcconfig", text: try RealProjects.text("mullvad-ios-Base.xcconfig")),
            (name: "App.xcconfig", text: try RealProjects.text("mullvad-ios-App.xcconfig")),
        ])
        #expect(plist.permittedIdentifiers == [
            "net.mullvad.MullvadVPN.AppRefresh", "net.mullvad.MullvadVPN.PrivateKeyRotation",
            "net.mullvad.MullvadVPN.AddressCacheUpdate",
        ])
        #expect(plist.displayName == "Mullvad VPN")
    }

    @Test func netNewsWireTakesItsBundleIdFromItsXCConfig() throws {
        let plist = try read("netnewswire-ios-Info.plist", ["ORGANIZATION_IDENTIFIER": "com.ranchero"], xcconfig: [
            (name: "NetNewsWire_iOSapp_target.xcconfig",
             text: try RealProjects.text("netnewswire-ios-NetNewsWire_iOSapp_target.xcconfig")),
            (name: "NetNewsWire_ios_target_common.xcconfig",
             text: try RealProjects.text("netnewswire-ios-NetNewsWire_ios_target_common.xcconfig")),
        ])
        #expect(plist.bundleId == "com.ranchero.NetNewsWire.iOS")
        #expect(plist.backgroundModes == ["fetch", "processing", "remote-notification"])
        #expect(plist.permittedIdentifiers == ["com.ranchero.NetNewsWire.FeedRefresh"])
        #expect(!plist.unresolvedBuildSettings.contains("MARKETING_VERSION"))
    }

    @Test func wordPressNamesItsOwnBundleSetting() throws {
        #expect {
            _ = try read("wordpress-ios-Info.plist")
        } throws: { error in
            guard case EmulationError.invalid(let issues) = error else { return false }
            return issues.map(\.field) == ["CFBundleIdentifier"] && issues[0].message.contains("?setting=WPCOM_BUNDLE_ID=")
        }
        #expect(try read("wordpress-ios-Info.plist", ["WPCOM_BUNDLE_ID": "org.wordpress"]).bundleId == "org.wordpress")
    }

    @Test func aLiteralBundleIdOtherThanTheOneAskedForIsRefused() throws {
        let xml = """
            <?xml version="1.0"?><plist version="1.0"><dict>\
            <key>CFBundleIdentifier</key><string>org.example.one</string></dict></plist>
            """
        #expect(throws: EmulationError.self) {
            try InfoPlist.parse(Array(xml.utf8), requestedBundleId: "org.example.two")
        }
        #expect(try InfoPlist.parse(Array(xml.utf8), requestedBundleId: "org.example.one").bundleId == "org.example.one")
    }
}
