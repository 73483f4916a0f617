import BGEmuKit
import Foundation
import Testing
import UIKit
@testable import SceneApp

/// The scene-based app's own code against a bgemu device (`BGEMU_URL`, `BGEMU_API_KEY`): a fresh device per test, the
/// app installed from its real Info.plist, its delegates set as UIKit would make them, virtual time advanced.
@MainActor @Suite(.serialized) struct SceneAppTests {
    static let bundleId = "com.example.articles"

    /// A new device with the app installed and launched by the user.
    func launchedApp() async throws -> (EmulatedDevice, EmulatedApp, AppDelegate) {
        let device = try await EmulatedDevice.create(osVersion: "17.0", name: "SceneApp tests")
        let plist = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Info.plist")
        let app = try await device.install(infoPlist: plist, bundleId: Self.bundleId)
        let appDelegate = AppDelegate()
        app.delegate = appDelegate
        // UIKit makes the scene delegate its Info.plist names (UISceneDelegateClassName).
        app.sceneDelegate = SceneDelegate()
        try await app.launch { _ = appDelegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil) }
        return (device, app, appDelegate)
    }

    func pendingIdentifiers(_ app: EmulatedApp) async throws -> [String] {
        try await app.run { () -> [String] in
            var identifiers: [String] = []
            BGTaskScheduler.shared.getPendingTaskRequests { identifiers = $0.map(\.identifier) }
            return identifiers
        }
    }

    @Test func sceneDidEnterBackgroundSchedulesTheRefresh() async throws {
        let (_, app, appDelegate) = try await launchedApp()
        #expect(try await pendingIdentifiers(app).isEmpty)
        try await app.moveToBackground()
        #expect(appDelegate.feed.failures.isEmpty)
        #expect(try await pendingIdentifiers(app) == [AppDelegate.refreshIdentifier])
    }

    @Test func theRefreshRunsCompletesResubmitsOnTheNextLineAndStaysScheduled() async throws {
        let (device, app, appDelegate) = try await launchedApp()
        try await app.moveToBackground()
        try await device.advanceClock(by: 4 * 3600)
        #expect(appDelegate.feed.refreshes >= 2)
        #expect(appDelegate.feed.failures.isEmpty)
        #expect(app.terminations.isEmpty)
        let events = try await device.recordedEvents().filter { $0.bundleId == Self.bundleId }
        let completed = events.filter { $0.type == .runCompleted }
        #expect(completed.count == appDelegate.feed.refreshes)
        #expect(completed.allSatisfy { $0.string("result") == "success" })
        #expect(!events.contains { $0.type == .taskRequestRejected })
        #expect(try await pendingIdentifiers(app) == [AppDelegate.refreshIdentifier])
    }
}
