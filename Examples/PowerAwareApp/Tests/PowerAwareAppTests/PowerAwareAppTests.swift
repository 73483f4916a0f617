import BGEmuKit
import Foundation
import Testing
@testable import PowerAwareApp

/// The app's own code against a bgemu device (`BGEMU_URL`, `BGEMU_API_KEY`): the tests toggle the device's Low Power
/// Mode and Background App Refresh switches, and the app's own, and the app pauses and resumes its sync from the
/// notifications iOS posts.
@MainActor @Suite(.serialized) struct PowerAwareAppTests {
    static let bundleId = "com.example.poweraware"

    /// A new device with the app installed from its Info.plist and launched by the user.
    func launchedApp() async throws -> (EmulatedDevice, EmulatedApp, SyncScheduler) {
        let device = try await EmulatedDevice.create(osVersion: "17.0", name: "PowerAwareApp tests")
        let plist = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Info.plist")
        let app = try await device.install(infoPlist: plist, bundleId: Self.bundleId)
        let delegate = AppDelegate()
        app.delegate = delegate
        try await app.launch { _ = delegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil) }
        return (device, app, delegate.sync)
    }

    func pendingIdentifiers(_ app: EmulatedApp) async throws -> [String] {
        try await app.run { () -> [String] in
            var identifiers: [String] = []
            BGTaskScheduler.shared.getPendingTaskRequests { identifiers = $0.map(\.identifier) }
            return identifiers
        }
    }

    @Test func lowPowerModeOnPausesTheSyncAndOffResumesIt() async throws {
        let (device, app, sync) = try await launchedApp()
        try await app.moveToBackground()
        try await app.moveToForeground()
        #expect(try await pendingIdentifiers(app) == [SyncScheduler.identifier])
        try await device.setConditions(lowPowerMode: true)
        #expect(sync.isPaused)
        #expect(try await pendingIdentifiers(app) == [])
        try await device.setConditions(lowPowerMode: false)
        #expect(!sync.isPaused)
        #expect(sync.log.entries == ["scheduled", "paused", "resumed", "scheduled"])
        #expect(sync.log.failures.isEmpty)
        #expect(try await pendingIdentifiers(app) == [SyncScheduler.identifier])
    }

    @Test func eitherBackgroundAppRefreshSwitchPausesAndResumesTheSync() async throws {
        let (device, app, sync) = try await launchedApp()
        try await device.setConditions(backgroundAppRefresh: false)
        #expect(try await app.run { UIApplication.shared.backgroundRefreshStatus } == .denied)
        try await app.moveToBackground()  // paused: no submit, so no `.unavailable` error either
        try await app.moveToForeground()
        try await device.setConditions(backgroundAppRefresh: true)
        try await app.setSettings(backgroundAppRefresh: false)
        try await app.setSettings(backgroundAppRefresh: true)
        #expect(sync.log.entries == ["paused", "skipped", "resumed", "scheduled", "paused", "resumed", "scheduled"])
        #expect(sync.log.failures.isEmpty)
        let rejected = try await device.recordedEvents().filter { $0.type == .taskRequestRejected }
        #expect(rejected.isEmpty)
    }

    @Test func aSuspendedAppLearnsOfLowPowerModeWhenTheUserReturnsToIt() async throws {
        let (device, app, sync) = try await launchedApp()
        try await app.moveToBackground()
        try await device.advanceClock(by: 10)  // its seconds to save state (R2), then suspended
        #expect(try await device.recordedEvents().last { $0.type == .appStateChanged }?.string("to") == "suspended")
        try await device.setConditions(lowPowerMode: true)
        #expect(sync.log.entries == ["scheduled"])  // suspended: its code does not run
        try await app.moveToForeground()
        #expect(sync.log.entries == ["scheduled", "paused"])
        #expect(try await pendingIdentifiers(app) == [])
    }

    @Test func theSyncRunsAndResubmitsWhileAllowed() async throws {
        let (device, app, sync) = try await launchedApp()
        try await app.moveToBackground()
        try await device.advanceClock(by: 6 * 3600)
        #expect(sync.log.count("synced") >= 1)
        #expect(sync.log.failures.isEmpty)
        #expect(app.terminations.isEmpty)
        #expect(try await pendingIdentifiers(app) == [SyncScheduler.identifier])
    }
}
