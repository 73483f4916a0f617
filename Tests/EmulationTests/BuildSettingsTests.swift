import Testing
@testable import Emulation

/// Build settings expanded as Xcode's "Expand Build Settings in Info.plist File" does.
struct BuildSettingsTests {
    func settings(_ values: [String: String], literalBundleId: String? = nil) -> BuildSettings {
        BuildSettings([BuildSettings.Level(source: "test", values: values)], literalBundleId: literalBundleId)
    }

    @Test func bothBracketFormsAreExpanded() {
        let s = settings(["PRODUCT_BUNDLE_IDENTIFIER": "org.example.weather"])
        #expect(s.expand("$(PRODUCT_BUNDLE_IDENTIFIER).refresh").value == "org.example.weather.refresh")
        #expect(s.expand("${PRODUCT_BUNDLE_IDENTIFIER}.refresh").value == "org.example.weather.refresh")
        #expect(s.expand("no references, $5 and $ alone").value == "no references, $5 and $ alone")
    }

    @Test func referencesInsideNamesAndValuesAreExpanded() {
        let s = settings([
            "CONFIGURATION": "Release", "APP_ID_Release": "org.example.app", "APP_ID_Debug": "org.example.app.debug",
            "PRODUCT_BUNDLE_IDENTIFIER": "$(APP_ID_$(CONFIGURATION))",
        ])
        #expect(s.expand("$(PRODUCT_BUNDLE_IDENTIFIER)") == BuildSettingExpansion(value: "org.example.app", unresolved: []))
    }

    @Test func operatorsMangleAsXcodeDoes() {
        let s = settings(["PRODUCT_NAME": "My App 2", "GAME": "2048 Game", "CAFE": "Café"])
        #expect(s.expand("$(PRODUCT_NAME:rfc1034identifier)").value == "My-App-2")
        #expect(s.expand("$(PRODUCT_NAME:identifier)").value == "My_App_2")
        #expect(s.expand("$(GAME:c99extidentifier)").value == "_2048_Game")
        #expect(s.expand("$(GAME:rfc1034identifier)").value == "-048-Game")
        #expect(s.expand("$(CAFE:c99extidentifier)").value == "Café")
        #expect(s.expand("$(CAFE:rfc1034identifier)").value == "Cafe-")
        #expect(s.expand("com.example.$(PRODUCT_NAME:rfc1034identifier:lower)").value == "com.example.my-app-2")
        #expect(s.expand("$(PRODUCT_NAME:upper)").value == "MY APP 2")
    }

    @Test func defaultOperatorFillsAnUnsetOrEmptySetting() {
        let s = settings(["EMPTY": ""])
        #expect(s.expand("$(MARKETING_VERSION:default=1.0)") == BuildSettingExpansion(value: "1.0", unresolved: []))
        #expect(s.expand("$(EMPTY:default=x)").value == "x")
    }

    @Test func pathOperators() {
        let s = settings(["P": "/a/b/Info.plist"])
        #expect(s.expand("$(P:file) $(P:base) $(P:suffix) $(P:dir)").value == "Info.plist Info .plist /a/b/")
    }

    @Test func anUnsetSettingIsKeptAsWrittenAndListed() {
        let expansion = settings([:]).expand("$(MARKETING_VERSION) ($(CURRENT_PROJECT_VERSION:lower))")
        #expect(expansion.value == "$(MARKETING_VERSION) ($(CURRENT_PROJECT_VERSION:lower))")
        #expect(expansion.unresolved == ["MARKETING_VERSION", "CURRENT_PROJECT_VERSION"])
    }

    @Test func anUnknownOperatorIsUnresolved() {
        let expansion = settings(["X": "y"]).expand("$(X:frobnicate)")
        #expect(expansion == BuildSettingExpansion(value: "$(X:frobnicate)", unresolved: ["X"]))
    }

    @Test func higherLevelsWinAndInheritedReachesTheLevelBelow() {
        let s = BuildSettings([
            BuildSettings.Level(source: "query", values: ["FLAGS": "$(inherited) -c", "NAME": "query"]),
            BuildSettings.Level(source: "buildSettings", values: ["FLAGS": "$(inherited) -b", "NAME": "body"]),
            BuildSettings.Level(source: "xcconfig", values: ["FLAGS": "-a"]),
        ])
        #expect(s.expand("$(NAME)").value == "query")
        #expect(s.expand("$(FLAGS)").value == "-a -b -c")
    }

    @Test func xcodeDefaultsDeriveTheProductNameFromTheBundleId() {
        let s = settings(["PRODUCT_BUNDLE_IDENTIFIER": "org.example.Weather-Now"])
        #expect(s.expand("$(EXECUTABLE_NAME)").value == "Weather-Now")
        #expect(s.expand("$(PRODUCT_NAME)").value == "Weather-Now")
        #expect(s.expand("$(PRODUCT_MODULE_NAME)").value == "Weather_Now")
        #expect(s.expand("$(DEVELOPMENT_LANGUAGE) $(PRODUCT_BUNDLE_PACKAGE_TYPE)").value == "en APPL")
        // TARGET_NAME, when given, is the product name; a literal bundle identifier counts as the setting.
        #expect(settings(["TARGET_NAME": "Weather"]).expand("$(PRODUCT_NAME)").value == "Weather")
        #expect(settings([:], literalBundleId: "org.example.Sky").expand("$(EXECUTABLE_NAME)").value == "Sky")
    }

    @Test func aCycleIsUnresolvedNotAHang() {
        let s = settings(["A": "$(B)", "B": "x$(A)"])
        let expansion = s.expand("$(A)")
        #expect(expansion.value == "x$(A)")
        #expect(expansion.unresolved == ["A"])
        // The old template: a bundle identifier made from a product name made from the bundle identifier.
        let template = settings(["PRODUCT_BUNDLE_IDENTIFIER": "com.example.$(PRODUCT_NAME:rfc1034identifier)"])
        #expect(template.expand("$(PRODUCT_BUNDLE_IDENTIFIER)").unresolved == ["PRODUCT_NAME"])
    }

    @Test func settingsThatDoubleAtEveryLevelStayBounded() {
        var values: [String: String] = ["S0": String(repeating: "x", count: 64)]
        for i in 1...60 { values["S\(i)"] = "$(S\(i - 1))$(S\(i - 1))" }
        let expansion = settings(values).expand("$(S60)")
        #expect(expansion.value.unicodeScalars.count <= 2 * BuildSettingExpander.maximumLength)
    }

    @Test func onlySettingNamesAreReferences() {
        #expect(BuildSettings.isSettingName("PRODUCT_NAME"))
        #expect(BuildSettings.isSettingName("_x1"))
        #expect(!BuildSettings.isSettingName("1X"))
        #expect(!BuildSettings.isSettingName("A-B"))
        #expect(settings([:]).expand("$(not a name)") == BuildSettingExpansion(value: "$(not a name)", unresolved: []))
    }
}
