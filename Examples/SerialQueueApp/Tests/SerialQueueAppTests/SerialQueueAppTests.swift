import BGEmuKit
import Foundation
import Testing
@testable import SerialQueueApp

/// The app's own code against a bgemu device (`BGEMU_URL`, `BGEMU_API_KEY`): its submits run on its serial queue,
/// outside every task the harness binds, and reach the app the process drives.
@MainActor @Suite(.serialized) struct SerialQueueAppTests {
    static let bundleId = "com.example.feeds"

    /// A new device with the app installed from its Info.plist and launched by the user.
    func launchedApp() async throws -> (EmulatedDevice, EmulatedApp, AppDelegate) {
        let device = try await EmulatedDevice.create(osVersion: "17.0", name: "SerialQueueApp tests")
        let plist = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Info.plist")
        let app = try await device.install(infoPlist: plist, bundleId: Self.bundleId)
        let delegate = AppDelegate()
        app.delegate = delegate
        try await app.launch { _ = delegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil) }
        return (device, app, delegate)
    }

    func pendingIdentifiers(_ app: EmulatedApp) async throws -> [String] {
        try await app.run { () -> [String] in
            var identifiers: [String] = []
            BGTaskScheduler.shared.getPendingTaskRequests { identifiers = $0.map(\.identifier) }
            return identifiers
        }
    }

    @Test func theSubmitEnqueuedOnTheSerialQueueByDidEnterBackgroundIsScheduled() async throws {
        let (_, app, delegate) = try await launchedApp()
        try await app.moveToBackground()
        #expect(delegate.refresher.log.failures.isEmpty)
        #expect(delegate.refresher.log.scheduledCount == 1)
        #expect(try await pendingIdentifiers(app) == [FeedRefresher.identifier])
    }

    @Test func theHandlerRunsOnItsQueueCompletesAndItsQueuedResubmitStaysScheduled() async throws {
        let (device, app, delegate) = try await launchedApp()
        try await app.moveToBackground()
        try await device.advanceClock(by: 4 * 3600)
        let log = delegate.refresher.log
        #expect(log.refreshes >= 2)
        #expect(log.failures.isEmpty)
        #expect(log.scheduledCount == log.refreshes + 1)
        #expect(app.terminations.isEmpty)
        let events = try await device.recordedEvents().filter { $0.bundleId == Self.bundleId }
        #expect(events.filter { $0.type == .runCompleted }.count == log.refreshes)
        #expect(!events.contains { $0.type == .taskRequestRejected })
        // Suspended once each refresh's work was done, its next request pending.
        #expect(events.last { $0.type == .appStateChanged }?.string("to") == "suspended")
        #expect(try await pendingIdentifiers(app) == [FeedRefresher.identifier])
    }
}
