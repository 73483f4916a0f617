import Testing
@testable import Emulation

struct InfoPlistTests {
    let expected = InfoPlist(
        bundleId: "com.example.weather", displayName: "Weather",
        backgroundModes: ["fetch", "processing", "remote-notification"],
        permittedIdentifiers: ["com.example.weather.refresh", "com.example.weather.cleanup"], exitsOnSuspend: false)

    @Test func parsesXMLPlist() throws {
        #expect(try InfoPlist.parse(Array(PlistFixtures.weatherXML.utf8)) == expected)
    }

    @Test func parsesBinaryPlist() throws {
        #expect(PlistFixtures.weatherBinary.starts(with: Array("bplist00".utf8)))
        #expect(try InfoPlist.parse(PlistFixtures.weatherBinary) == expected)
    }

    @Test func missingBundleIdentifierNamesTheKey() {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>\
            <key>UIBackgroundModes</key><string>fetch</string></dict></plist>
            """
        #expect(throws: EmulationError.invalid([
            FieldIssue("CFBundleIdentifier", "is required and must be a string"),
            FieldIssue("UIBackgroundModes", "must be an array of strings"),
        ])) { try InfoPlist.parse(Array(xml.utf8)) }
    }

    @Test func garbageIsNotAPlist() {
        #expect(throws: EmulationError.self) { try InfoPlist.parse(Array("{\"json\": true}".utf8)) }
        #expect(throws: EmulationError.self) { try InfoPlist.parse([0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30, 1, 2]) }
    }

    @Test func topLevelMustBeADictionary() {
        let xml = "<?xml version=\"1.0\"?><plist version=\"1.0\"><array/></plist>"
        #expect(throws: EmulationError.invalid([FieldIssue("Info.plist", "the top level must be a dictionary")])) {
            try InfoPlist.parse(Array(xml.utf8))
        }
    }
}
