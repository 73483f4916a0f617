import BGEmuKit
import Foundation
import Testing
@testable import ObserverApp

/// The app's own code against a bgemu device (`BGEMU_URL`, `BGEMU_API_KEY`): its lifecycle observer runs on the main
/// operation queue and its save in a main-queue block, outside every task the harness binds.
@MainActor @Suite(.serialized) struct ObserverAppTests {
    static let bundleId = "com.example.drafts"

    /// A new device with the app installed from its Info.plist and launched by the user.
    func launchedApp(endsSaveTask: Bool = true) async throws -> (EmulatedDevice, EmulatedApp, DraftSync) {
        let device = try await EmulatedDevice.create(osVersion: "17.0", name: "ObserverApp tests")
        let plist = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Info.plist")
        let app = try await device.install(infoPlist: plist, bundleId: Self.bundleId)
        let delegate = AppDelegate()
        delegate.sync.endsSaveTask = endsSaveTask
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

    @Test func theObserverSchedulesTheSyncAndTheMainQueueSaveBeginsAValidTaskAndEndsIt() async throws {
        let (device, app, sync) = try await launchedApp()
        try await app.moveToBackground()
        #expect(sync.log.failures.isEmpty)
        #expect(sync.log.saves == 1)
        let began = try #require(sync.log.backgroundTasks.first)
        #expect(began != .invalid)
        #expect(try await pendingIdentifiers(app) == [DraftSync.syncIdentifier])
        let ended = try await device.recordedEvents().filter { $0.type == .backgroundTaskEnded && $0.bundleId == Self.bundleId }
        #expect(ended.map { $0.string("reason") } == ["ended"])
    }

    @Test func aSaveTaskLeftOpenIsToldToExpireAtTheAllowanceAndItsHandlerEndsIt() async throws {
        let (device, app, sync) = try await launchedApp(endsSaveTask: false)
        let leftAt = try await device.now
        try await app.moveToBackground()
        #expect(sync.log.backgroundTasks.count == 1 && sync.log.backgroundTasks.first != .invalid)
        try await device.advanceClock(by: 120)
        #expect(sync.log.savesCutShort == 1)
        #expect(app.terminations.isEmpty)
        let events = try await device.recordedEvents().filter { $0.bundleId == Self.bundleId }
        // iOS 17: 30 s of allowance, the expiration handler called 5 s before its end.
        let expiring = try #require(events.first { $0.type == .backgroundTaskExpiring })
        #expect(expiring.at.timeIntervalSince(leftAt) == 25)
        #expect(events.last { $0.type == .appStateChanged }?.string("to") == "suspended")
    }

    @Test func theSyncRunsCompletesResubmitsOnTheNextLineAndStaysScheduled() async throws {
        let (device, app, sync) = try await launchedApp()
        try await app.moveToBackground()
        try await device.advanceClock(by: 6 * 3600)
        #expect(sync.log.syncs >= 1)
        #expect(sync.log.failures.isEmpty)
        #expect(app.terminations.isEmpty)
        let events = try await device.recordedEvents().filter { $0.bundleId == Self.bundleId }
        #expect(events.filter { $0.type == .runCompleted }.count == sync.log.syncs)
        #expect(!events.contains { $0.type == .taskRequestRejected })
        #expect(try await pendingIdentifiers(app) == [DraftSync.syncIdentifier])
    }
}
