import BGEmuKit
import Foundation
import Testing
@testable import SilentPushApp

/// The app's own code against a bgemu device (`BGEMU_URL`, `BGEMU_API_KEY`): it registers for remote notifications
/// at launch, and bgemu's silent pushes wake it (R29–R31) in `application(_:didReceiveRemoteNotification:
/// fetchCompletionHandler:)`, whose `.newData` completes the run.
@MainActor @Suite(.serialized) struct SilentPushAppTests {
    static let bundleId = "com.example.silentpush"

    /// A new device with the app installed from its Info.plist and launched by the user.
    func launchedApp() async throws -> (EmulatedDevice, EmulatedApp, AppDelegate) {
        let device = try await EmulatedDevice.create(osVersion: "17.0", name: "SilentPushApp tests")
        let plist = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Info.plist")
        let app = try await device.install(infoPlist: plist, bundleId: Self.bundleId)
        let delegate = AppDelegate()
        app.delegate = delegate
        try await app.launch { _ = delegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil) }
        return (device, app, delegate)
    }

    /// The app's `run.completed` events' results.
    func completedResults(_ device: EmulatedDevice) async throws -> [String?] {
        try await device.recordedEvents().filter { $0.type == .runCompleted && $0.bundleId == Self.bundleId }
            .map { $0.string("result") }
    }

    @Test func theLaunchRegistersForRemoteNotificationsAndGetsADeviceToken() async throws {
        let (_, app, delegate) = try await launchedApp()
        #expect(delegate.deviceToken?.count == 64)
        #expect(try await app.run { UIApplication.shared.isRegisteredForRemoteNotifications })
        let settings = await app.bind { await UNUserNotificationCenter.current().notificationSettings() }
        #expect(settings.authorizationStatus == .authorized)
        #expect(delegate.articles.failures.isEmpty)
    }

    /// `test-against-bgemu.sh` put the app's Info.plist beside the test executable, where Foundation on Linux
    /// reads the main bundle's.
    @Test func theMainBundleIsTheApps() {
        #expect(Bundle.main.bundleIdentifier == Self.bundleId)
        #expect(Bundle.main.object(forInfoDictionaryKey: "UIBackgroundModes") as? [String] == ["remote-notification"])
    }

    @Test func aSilentPushWakesTheSuspendedAppWhichRefreshesTheArticleAndCompletesWithNewData() async throws {
        let (device, app, delegate) = try await launchedApp()
        try await app.moveToBackground()
        try await device.advanceClock(by: 10)  // its seconds to save state (R2), then suspended
        try await device.push(["aps": ["content-available": 1], "article": 42], to: app)
        #expect(delegate.articles.refreshed == [42])
        #expect(try await completedResults(device) == ["newData"])
        let events = try await device.recordedEvents().filter { $0.bundleId == Self.bundleId }
        #expect(events.contains { $0.type == .runStarted && $0.string("kind") == "remoteNotification" })
        #expect(events.last { $0.type == .appStateChanged }?.string("to") == "suspended")
        #expect(app.terminations.isEmpty)
    }

    @Test func aSilentPushToAnAppTheSystemTerminatedLaunchesItInTheBackground() async throws {
        let (device, app, delegate) = try await launchedApp()
        try await app.moveToBackground()
        try await app.terminate()
        try await device.push(["aps": ["content-available": 1], "article": 7], to: app)
        #expect(delegate.articles.refreshed == [7])
        #expect(try await completedResults(device) == ["newData"])
        let launches = try await device.recordedEvents().filter {
            $0.bundleId == Self.bundleId && $0.type == .appDelegate && $0.string("callback") == "didFinishLaunching"
        }
        #expect(launches.count == 2)
    }

    @Test func aPushWithoutAnArticleCompletesWithNoData() async throws {
        let (device, app, delegate) = try await launchedApp()
        try await app.moveToBackground()
        try await device.advanceClock(by: 10)
        try await device.push(["aps": ["content-available": 1]], to: app)
        #expect(delegate.articles.refreshed.isEmpty)
        #expect(try await completedResults(device) == ["noData"])
    }
}
