import Testing
@testable import Emulation

struct XCConfigTests {
    @Test func assignmentsCommentsSemicolonsAndLaterWins() {
        let config = XCConfig(parsing: """
            // Shared settings
            PRODUCT_NAME = Weather   // the app's name
            MARKETING_VERSION = 1.0;
            MARKETING_VERSION = 1.2
            URL = https:/$()/example.com
            """)
        #expect(config.settings == ["PRODUCT_NAME": "Weather", "MARKETING_VERSION": "1.2", "URL": "https:/$()/example.com"])
        #expect(config.notes.isEmpty)
    }

    @Test func conditionsAreTakenForAnIPhoneReleaseBuild() {
        let config = XCConfig(parsing: """
            APP_ID = org.example.app
            APP_ID[sdk=iphonesimulator*] = org.example.app.sim
            ICON[config=Debug][sdk=*] = AppIcon-Debug
            ICON[config=Release][sdk=*][arch=*] = AppIcon
            TEAM[sdk=iphoneos*] = ABCDE12345
            """)
        #expect(config.settings == ["APP_ID": "org.example.app", "ICON": "AppIcon", "TEAM": "ABCDE12345"])
    }

    @Test func inheritedStandsForTheValueOverridden() {
        let config = XCConfig(parsing: "FLAGS = -a\nFLAGS = $(inherited) -b\nOTHER = $(inherited) -c")
        #expect(config.settings["FLAGS"] == "-a -b")
        #expect(config.settings["OTHER"] == "$(inherited) -c")
    }

    @Test func includesOfUploadedFilesAreFollowedInPlace() {
        let config = XCConfig(files: [
            (name: "Base.xcconfig", text: "APPLICATION_IDENTIFIER = org.example.base\nTEAM = T1"),
            (name: "App.xcconfig", text: "#include \"../Configs/Base.xcconfig\"\nTEAM = T2\n#include? \"Local.xcconfig\""),
        ])
        #expect(config.settings == ["APPLICATION_IDENTIFIER": "org.example.base", "TEAM": "T2"])
        #expect(config.notes.isEmpty)  // an optional include that is missing is no news
    }

    @Test func includesNotUploadedAreListed() {
        let config = XCConfig(parsing: "#include \"Signing.xcconfig\"\nA = 1\nnot an assignment")
        #expect(config.settings == ["A": "1"])
        #expect(config.notes.count == 2)
        #expect(config.notes[0].contains("#include \"Signing.xcconfig\" was not followed"))
        #expect(config.notes[1].contains("is not a NAME = VALUE assignment"))
    }

    @Test func includeCyclesEnd() {
        let config = XCConfig(files: [
            (name: "A.xcconfig", text: "#include \"B.xcconfig\"\nA = 1"),
            (name: "B.xcconfig", text: "#include \"A.xcconfig\"\nB = 2"),
        ])
        #expect(config.settings["A"] == "1")
        #expect(config.settings["B"] == "2")
    }

    /// Mullvad VPN's App.xcconfig includes its Base.xcconfig, whose APPLICATION_IDENTIFIER names the app's
    /// BGTaskScheduler identifiers in its Info.plist.
    @Test func realProjectMullvad() throws {
        let config = XCConfig(files: [
            (name: "Base.xcconfig", text: try RealProjects.text("mullvad-ios-Base.xcconfig")),
            (name: "App.xcconfig", text: try RealProjects.text("mullvad-ios-App.xcconfig")),
        ])
        #expect(config.settings["APPLICATION_IDENTIFIER"] == "net.mullvad.MullvadVPN")
        #expect(config.settings["PROVISIONING_PROFILE_SPECIFIER"] == "Mullvad VPN Distribution")
        #expect(config.notes.isEmpty)
    }
}
