import BGEmuKit
import Foundation
import Testing
import WeatherApp

/// The weather app's own background code, run against a bgemu device (`BGEMU_URL`, `BGEMU_API_KEY`): each test makes
/// a fresh device, installs the app from its real Info.plist, launches it with its real didFinishLaunching, and lets
/// virtual time pass.
@MainActor @Suite(.serialized) struct WeatherAppTests {
    static let bundleId = "com.example.weather"

    /// A new device with the app installed and launched by the user, its delegate set.
    func launchedApp(_ delegate: WeatherAppDelegate, policy: [String: Double] = [:]) async throws -> (EmulatedDevice, EmulatedApp) {
        let device = try await EmulatedDevice.create(osVersion: "17.0", name: "WeatherApp tests", policy: policy)
        // The app's Info.plist, as Xcode's template writes it (build settings unexpanded).
        let plist = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Info.plist")
        let app = try await device.install(infoPlist: plist, bundleId: Self.bundleId)
        app.delegate = delegate
        try await app.launch { delegate.didFinishLaunching() }
        return (device, app)
    }

    @Test func theRefreshRunsWithinThePolicysWindowAndReschedulesItself() async throws {
        let delegate = WeatherAppDelegate()
        let (device, app) = try await launchedApp(delegate)
        #expect(app.registeredIdentifiers == [WeatherAppDelegate.refreshIdentifier])
        try await app.moveToBackground()
        #expect(delegate.store.savedOnBackground == 1)
        try await device.advanceClock(by: 3600)
        // At least one refresh ran, completed in time, and scheduled the next one each time.
        #expect(delegate.store.refreshes >= 1)
        #expect(delegate.store.expirations == 0)
        #expect(app.terminations.isEmpty)
        let events = try await device.recordedEvents()
        let completed = events.filter { $0.type == .runCompleted && $0.bundleId == Self.bundleId }
        #expect(completed.count == delegate.store.refreshes)
        let started = events.filter { $0.type == .runStarted && $0.bundleId == Self.bundleId }
        // Never before the 15 minutes the request asked for.
        let first = try #require(started.first)
        let installedAt = try #require(events.first).at
        #expect(first.at.timeIntervalSince(installedAt) >= 15 * 60)
        let pending = try await app.run { () -> [String] in
            var identifiers: [String] = []
            BGTaskScheduler.shared.getPendingTaskRequests { identifiers = $0.map(\.identifier) }
            return identifiers
        }
        #expect(pending == [WeatherAppDelegate.refreshIdentifier])
    }

    @Test func lowPowerModeMakesSubmitThrowUnavailable() async throws {
        let delegate = WeatherAppDelegate()
        let (device, app) = try await launchedApp(delegate)
        try await device.setConditions(lowPowerMode: true)
        try await app.run { delegate.scheduleRefresh() }
        #expect(delegate.store.submitErrors == [.unavailable])
    }

    @Test func anIdentifierNotInTheInfoPlistIsNotPermitted() async throws {
        let (_, app) = try await launchedApp(WeatherAppDelegate())
        let thrown = try await app.run { () -> BGTaskScheduler.Error? in
            do {
                try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.weather.unknown"))
                return nil
            } catch let error as BGTaskScheduler.Error {
                return error
            }
        }
        #expect(thrown?.code == .notPermitted)
    }

    @Test func aRefreshThatNeverCompletesIsToldToExpireThenKilledByTheWatchdog() async throws {
        let delegate = WeatherAppDelegate()
        delegate.completesRefreshes = false
        delegate.completesOnExpiration = false
        let (device, app) = try await launchedApp(delegate)
        try await app.moveToBackground()
        try await device.advanceClock(by: 20 * 60)
        #expect(delegate.store.expirations == 1)
        let kill = try #require(app.terminations.first)
        #expect(kill.reason == "watchdog" && kill.terminationCode == "0x8badf00d")
    }

    @Test func anExpirationHandlerThatCompletesTheTaskSavesTheApp() async throws {
        let delegate = WeatherAppDelegate()
        delegate.completesRefreshes = false
        let (device, app) = try await launchedApp(delegate)
        try await app.moveToBackground()
        try await device.advanceClock(by: 20 * 60)
        #expect(delegate.store.expirations == 1)
        #expect(app.terminations.isEmpty)
    }

    @Test func registeringAfterLaunchIsRefusedAsOnIOS() async throws {
        let (_, app) = try await launchedApp(WeatherAppDelegate())
        let registered = try await app.run {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.weather.cleanup", using: nil) { _ in }
        }
        #expect(!registered)
        #expect(app.registeredIdentifiers == [WeatherAppDelegate.refreshIdentifier])
    }

    @Test func aSilentPushReachesTheDelegate() async throws {
        let delegate = WeatherAppDelegate()
        let (device, app) = try await launchedApp(delegate)
        try await app.moveToBackground()
        try await device.advanceClock(by: 10)
        try await device.push(["aps": ["content-available": 1], "menu": "updated"], to: app)
        #expect(delegate.store.pushCount == 1)
        #expect(delegate.store.lastMenu == "updated")
    }

    @Test func theSaveTaskThatIsNeverEndedIsToldToExpireAtTheAllowance() async throws {
        let delegate = WeatherAppDelegate()
        delegate.endsSaveTask = false
        let (device, app) = try await launchedApp(delegate)
        try await app.moveToBackground()
        try await device.advanceClock(by: 60)
        // iOS 17: 30 s of allowance; the expiration handler ends the task, so the app is suspended, not killed.
        #expect(delegate.store.saveExpired == 1)
        #expect(app.terminations.isEmpty)
        let expiring = try await device.recordedEvents().filter { $0.type == .backgroundTaskExpiring }
        #expect(expiring.count == 1)
    }
}
