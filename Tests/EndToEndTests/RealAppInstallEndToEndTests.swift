import Foundation
import Testing
import ZIPFoundation

/// A user's real app through the real executable and a live service: a project's Info.plist as its repository has
/// it (build settings unexpanded), with `--bundle-id` and `--setting`; an `.ipa` written by a zip library; and an
/// archive that tries to climb out of itself.
@Suite(.serialized) struct RealAppInstallEndToEndTests {
    static let key = "real-app-e2e-key-0123456789"

    func setUp() throws -> (LiveService, CommandLineRunner, String) {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        let device = try service.client(key: Self.key).request("POST", "/v1/devices", json: #"{"name":"ci-phone"}"#)
        let id = try #require(device.json["id"] as? String)
        var cli = CommandLineRunner()
        cli.environment["BGEMU_URL"] = "http://127.0.0.1:\(service.port)"
        cli.environment["BGEMU_API_KEY"] = Self.key
        return (service, cli, id)
    }

    static func realProject(_ name: String) -> String {
        CommandLineRunner.fixtures.appendingPathComponent("RealProjects/\(name)").path
    }

    @Test func aRealProjectsPlistInstallsWithTheSettingsGivenOnTheLine() throws {
        let (service, cli, device) = try setUp()
        defer { service.stop() }
        // Without its bundle id the service says which setting to pass, and the command exits 1 with it.
        let refused = try cli.run(["install", device, Self.realProject("vlc-ios-Info.plist")])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("PRODUCT_BUNDLE_IDENTIFIER") && refused.stderr.contains("?bundleId="), "\(refused.stderr)")

        let installed = try cli.run([
            "install", device, Self.realProject("vlc-ios-Info.plist"), "--bundle-id", "org.videolan.vlc-ios",
            "--setting", "MARKETING_VERSION=3.6.4",
        ])
        #expect(installed.status == 0, "\(installed.stderr)")
        let app = try service.client(key: Self.key).request("GET", "/v1/devices/\(device)/apps/org.videolan.vlc-ios").json
        #expect((app["infoPlist"] as? [String: Any])?["BGTaskSchedulerPermittedIdentifiers"] as? [String]
            == ["org.videolan.vlc-ios.podcast-refresh", "org.videolan.vlc-ios.podcast-download"])
        let unresolved = app["unresolvedBuildSettings"] as? [String] ?? []
        #expect(unresolved.contains("CURRENT_PROJECT_VERSION") && !unresolved.contains("MARKETING_VERSION"))
    }

    @Test func anIPAInstallsAndAnArchiveThatClimbsOutIsRefused() throws {
        let (service, cli, device) = try setUp()
        defer { service.stop() }
        let plist = try PropertyListSerialization.data(fromPropertyList: [
            "CFBundleIdentifier": "org.example.Sky", "CFBundleName": "Sky", "UIBackgroundModes": ["audio", "fetch"],
        ] as [String: Any], format: .binary, options: 0)
        let ipa = service.directory.appendingPathComponent("Sky.ipa")
        try Self.zip([("Payload/Sky.app/Info.plist", plist), ("Payload/Sky.app/Sky", Data(count: 100_000))], to: ipa)
        let installed = try cli.run(["install", device, ipa.path])
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(installed.stdout.hasPrefix("installed org.example.Sky (Sky) on \(device): background modes audio, fetch"))

        let evil = service.directory.appendingPathComponent("evil.ipa")
        try Self.zip([("Payload/X.app/Info.plist", plist), ("../../outside", Data([1]))], to: evil)
        let refused = try cli.run(["install", device, evil.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("climbs out of the archive"), "\(refused.stderr)")
    }

    static func zip(_ entries: [(String, Data)], to url: URL) throws {
        let archive = try Archive(url: url, accessMode: .create)
        for (path, data) in entries {
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
            ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
        }
    }
}
