import Testing
@testable import Emulation

struct AppInstallationTests {
    let now = VirtualInstant.defaultStart

    @Test func launchHandlersDefaultToEveryPermittedIdentifier() throws {
        let app = try AppInstallation(
            bundleId: "com.example.a", backgroundModes: ["fetch"], permittedIdentifiers: ["a.refresh", "a.clean"]
        ).validated(installedAt: now)
        #expect(app.launchHandlers == ["a.refresh", "a.clean"])
        #expect(app.state == .notRunning)
        #expect(app.manifest.backgroundModes == [.fetch])
        #expect(app.installedAt == now)
    }

    @Test func unknownBackgroundModeIsRejectedWithTheValidList() throws {
        let error = #expect(throws: EmulationError.self) {
            try AppInstallation(bundleId: "com.example.a", backgroundModes: ["fetch", "teleport"]).validated(installedAt: now)
        }
        guard case .invalid(let issues) = error else { Issue.record("expected invalid"); return }
        #expect(issues.count == 1)
        #expect(issues[0].field == "infoPlist.UIBackgroundModes[1]")
        for mode in BackgroundMode.all { #expect(issues[0].message.contains(mode.rawValue)) }
    }

    @Test func repeatedModesAreKeptOnce() throws {
        let app = try AppInstallation(bundleId: "com.example.a", backgroundModes: ["audio", "audio", "voip"])
            .validated(installedAt: now)
        #expect(app.manifest.backgroundModes == [.audio, .voip])
    }

    @Test(arguments: ["", "com example", "com..example", ".com.example", "com.example.", "com/example",
                      String(repeating: "a", count: 156)])
    func badBundleIdentifiersAreRejected(bundleId: String) {
        #expect(AppInstallation.bundleIdProblem(bundleId) != nil)
        #expect(throws: EmulationError.self) { try AppInstallation(bundleId: bundleId).validated(installedAt: now) }
    }

    @Test(arguments: ["com.example.app", "io.bgemu.Test-App2", "a"])
    func goodBundleIdentifiersAreAccepted(bundleId: String) {
        #expect(AppInstallation.bundleIdProblem(bundleId) == nil)
    }

    @Test func launchHandlerMustBePermitted_R16() {
        #expect(throws: EmulationError.invalid([FieldIssue(
            "launchHandlers[0]",
            "\"x.other\" is not in BGTaskSchedulerPermittedIdentifiers; registering it would crash the app")])
        ) {
            try AppInstallation(bundleId: "com.example.a", permittedIdentifiers: ["x.refresh"], launchHandlers: ["x.other"])
                .validated(installedAt: now)
        }
    }

    @Test func permittedIdentifiersMustBeDistinctAndWellFormed() {
        #expect(throws: EmulationError.self) {
            try AppInstallation(bundleId: "com.example.a", permittedIdentifiers: ["a", "a"]).validated(installedAt: now)
        }
        #expect(throws: EmulationError.self) {
            try AppInstallation(bundleId: "com.example.a", permittedIdentifiers: ["has space"]).validated(installedAt: now)
        }
    }
}
