import BGEmuKit
import Foundation
import Testing
@testable import ExpirationApp

/// The app's own code against a bgemu device (`BGEMU_URL`, `BGEMU_API_KEY`): work that outlasts its time is cut
/// short by the expiration handler, and ended from the main queue once the upload's queue has reported the
/// cancellation — within the grace the device gives, because the device's clock follows real time while the app's
/// code is at work. The real-time budget is half a second (the default is two), so that the harness soon stops
/// waiting for work that only the expiration ends.
@MainActor @Suite(.serialized) struct ExpirationAppTests {
    static let bundleId = "com.example.photos"

    /// A new device with the app installed from its Info.plist, launched by the user, then sent to the background.
    func appInTheBackground() async throws -> (EmulatedDevice, EmulatedApp, AppDelegate) {
        let device = try await EmulatedDevice.create(osVersion: "17.0", name: "ExpirationApp tests")
        device.realTimeBudget = .milliseconds(500)
        let plist = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Info.plist")
        let app = try await device.install(infoPlist: plist, bundleId: Self.bundleId)
        let delegate = AppDelegate()
        app.delegate = delegate
        try await app.launch { _ = delegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil) }
        try await app.moveToBackground()
        return (device, app, delegate)
    }

    @Test func theSaveTaskBegunInDidEnterBackgroundIsValidAndExpiresAfterTheAllowance() async throws {
        let (device, app, delegate) = try await appInTheBackground()
        let log = delegate.syncer.log
        #expect(log.identifiers.count == 1)
        #expect(log.identifiers.first != .invalid)
        try await device.advanceClock(by: 60)
        #expect(log.notes == ["save expiring", "save ended"])
        #expect(app.terminations.isEmpty)
        let events = try await device.recordedEvents().filter { $0.bundleId == Self.bundleId }
        let began = try #require(events.first { $0.type == .backgroundTaskBegan })
        let expiring = try #require(events.first { $0.type == .backgroundTaskExpiring })
        let ended = try #require(events.first { $0.type == .backgroundTaskEnded })
        // iOS 17's 30 s allowance, the expiration handler called about 5 s before it ends (R11), the task ended by
        // the app (not by the watchdog) before it ran out.
        #expect(expiring.at.timeIntervalSince(began.at) == 25)
        #expect(ended.string("reason") == "ended")
        #expect(ended.at.timeIntervalSince(began.at) < 30)
        #expect(events.last { $0.type == .appStateChanged }?.string("to") == "suspended")
    }

    @Test func aSyncCutShortByItsExpirationCompletesFromTheMainQueueAndIsNotKilled() async throws {
        let (device, app, delegate) = try await appInTheBackground()
        try await device.advanceClock(by: 3600)
        #expect(app.terminations.isEmpty)
        let events = try await device.recordedEvents().filter { $0.bundleId == Self.bundleId }
        #expect(!events.contains { $0.type == .runExpired || $0.type == .taskRequestRejected })
        let expiring = events.filter { $0.type == .runExpiring }
        #expect(expiring.count >= 2)
        // Every run told to expire was completed (as failed) by the app within its grace.
        for run in expiring {
            let completed = try #require(events.first { $0.type == .runCompleted && $0.string("runId") == run.string("runId") })
            #expect(completed.at.timeIntervalSince(run.at) < 5)
        }
        let notes = delegate.syncer.log.notes.filter { $0.hasPrefix("sync") }
        #expect(Array(notes.prefix(3)) == ["sync started", "sync expiring", "sync cancelled"])
        let pending = try await app.run { () -> [String] in
            var identifiers: [String] = []
            BGTaskScheduler.shared.getPendingTaskRequests { identifiers = $0.map(\.identifier) }
            return identifiers
        }
        #expect(pending == [PhotoSyncer.identifier])
    }
}
