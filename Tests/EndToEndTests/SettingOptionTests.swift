import ArgumentParser
@testable import bgemu
import Testing

/// `--setting NAME=VALUE` of `bgemu install` and `bgemu forecast`: split alike, and refused alike before anything is
/// sent when the service would refuse it.
struct SettingOptionTests {
    @Test func aSettingSplitsAtItsFirstEquals() throws {
        let setting = try SettingOption("APP_ID=a=b")
        #expect(setting.name == "APP_ID" && setting.value == "a=b")
        let empty = try SettingOption("EMPTY=")
        #expect(empty.name == "EMPTY" && empty.value == "")
    }

    @Test func noEqualsAnEmptyOrBadNameOrALongValueIsRefused() {
        for bad in ["NOVALUE", "=v", "bad-name=v", "1X=v", "LONG=" + String(repeating: "x", count: 4097)] {
            #expect(throws: ValidationError.self, "\(bad.prefix(20))") { try SettingOption(bad) }
        }
    }

    @Test func forecastAndInstallRefuseTheSameSettings() {
        for bad in ["=v", "NOVALUE", "bad-name=v"] {
            #expect(throws: (any Error).self) {
                try ForecastRunCommand.parse(["request.json", "--info-plist", "Info.plist", "--setting", bad])
            }
            #expect(throws: (any Error).self) { try InstallCommand.parse(["dev_1", "Info.plist", "--setting", bad]) }
        }
        #expect(throws: Never.self) {
            try ForecastRunCommand.parse(["request.json", "--info-plist", "Info.plist", "--setting", "APP_ID=a.b"])
        }
        #expect(throws: Never.self) { try InstallCommand.parse(["dev_1", "Info.plist", "--setting", "APP_ID=a.b"]) }
    }
}
