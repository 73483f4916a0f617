import BGEmuKit
import Foundation
import Testing
@testable import AsyncNetworkApp

/// The app's own code against a bgemu device (`BGEMU_URL`, `BGEMU_API_KEY`) and a stub of its server that answers
/// after a real 300 ms: the refresh handler completes in a `Task` once the answer has come, and the device's clock
/// follows real time meanwhile, so the run completes within its 30 s as on a phone.
@MainActor @Suite(.serialized) struct AsyncNetworkAppTests {
    static let bundleId = "com.example.headlines"
    static let headlines = #"["Markets rally","Rain tomorrow"]"#

    /// A new device with the app installed from its Info.plist and launched by the user, its launch's own
    /// foreground refresh done.
    static func launchedApp(_ server: StubServer) async throws -> (EmulatedDevice, EmulatedApp, AppDelegate) {
        let device = try await EmulatedDevice.create(osVersion: "17.0", name: "AsyncNetworkApp tests")
        let plist = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Info.plist")
        let app = try await device.install(infoPlist: plist, bundleId: Self.bundleId)
        UserDefaults.standard.set(server.url.absoluteString, forKey: "HeadlinesServerURL")
        let delegate = AppDelegate()
        app.delegate = delegate
        try await app.launch { _ = delegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil) }
        try await device.settle()
        return (device, app, delegate)
    }

    func pendingIdentifiers(_ app: EmulatedApp) async throws -> [String] {
        try await app.run { () -> [String] in
            var identifiers: [String] = []
            BGTaskScheduler.shared.getPendingTaskRequests { identifiers = $0.map(\.identifier) }
            return identifiers
        }
    }

    @Test func theRefreshCompletesAfterItsNetworkAnswerResubmitsAndStaysScheduled() async throws {
        let server = try StubServer(delay: .milliseconds(300), body: Self.headlines)
        defer { server.stop() }
        let (device, app, delegate) = try await Self.launchedApp(server)
        let log = delegate.refresher.log
        #expect(log.refreshes == 1)  // the launch's own, in the foreground
        try await app.moveToBackground()
        try await device.advanceClock(by: 2 * 3600)
        #expect(log.failures.isEmpty)
        #expect(log.refreshes >= 3)
        #expect(server.requests == log.refreshes)
        #expect(log.headlines == ["Markets rally", "Rain tomorrow"])
        #expect(log.scheduledCount == log.refreshes)  // didEnterBackground's, then one after each background refresh
        #expect(app.terminations.isEmpty)
        let events = try await device.recordedEvents().filter { $0.bundleId == Self.bundleId }
        #expect(!events.contains { $0.type == .runExpiring || $0.type == .runExpired || $0.type == .taskRequestRejected })
        // Each run completed once its answer had come: about 0.3 s of the device's time after it started.
        let started = events.filter { $0.type == .runStarted }
        let completed = events.filter { $0.type == .runCompleted }
        #expect(completed.count == log.refreshes - 1)
        for (start, end) in zip(started, completed) {
            #expect(end.string("runId") == start.string("runId"))
            let took = end.at.timeIntervalSince(start.at)
            #expect(took > 0 && took < 30)  // within the run's allowance, however loaded the machine
        }
        #expect(events.last { $0.type == .appStateChanged }?.string("to") == "suspended")
        #expect(try await pendingIdentifiers(app) == [HeadlinesRefresher.identifier])
    }
}
