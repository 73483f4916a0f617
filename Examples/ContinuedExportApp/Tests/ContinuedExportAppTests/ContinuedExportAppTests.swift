import BGEmuKit
import Foundation
import Testing
@testable import ContinuedExportApp

/// The app's own export code against a bgemu device (`BGEMU_URL`, `BGEMU_API_KEY`) on iOS 26: the export the user
/// starts in the foreground is a continued processing task that keeps running in the background while its progress
/// advances (R41).
@MainActor @Suite(.serialized) struct ContinuedExportAppTests {
    static let bundleId = "com.example.exporter"

    /// A new iOS 26 device with the app installed from its Info.plist and launched by the user; the exporter's
    /// photos go through `gate`.
    func launchedApp(_ gate: PhotoGate) async throws -> (EmulatedDevice, EmulatedApp, AppDelegate) {
        let device = try await EmulatedDevice.create(osVersion: "26.0", name: "ContinuedExportApp tests")
        let plist = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Info.plist")
        let app = try await device.install(infoPlist: plist, bundleId: Self.bundleId)
        let delegate = AppDelegate()
        delegate.exporter = PhotoExporter(encodePhoto: gate.pass)
        app.delegate = delegate
        try await app.launch { _ = delegate.application(UIApplication.shared, didFinishLaunchingWithOptions: nil) }
        return (device, app, delegate)
    }

    /// Waits (up to 5 s of real time) for the export's own task to get there.
    func eventually(_ what: String, _ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition(), "\(what)")
    }

    func events(_ device: EmulatedDevice) async throws -> [DeviceEvent] {
        try await device.recordedEvents().filter { $0.bundleId == Self.bundleId }
    }

    @Test func theExportStartedInTheForegroundFinishesAfterTheUserGoesHome() async throws {
        let gate = PhotoGate()
        let (device, app, delegate) = try await launchedApp(gate)
        let log = delegate.exporter.log
        try await app.run { delegate.exporter.exportTapped(photoCount: 4) }
        #expect(log.failures.isEmpty)
        #expect(log.started.first?.hasPrefix("com.example.exporter.export.") == true)
        gate.open()
        try await eventually("the first photo") { log.exported == 1 }
        try await app.moveToBackground()
        // 45 s between photos, 135 s in the background in all: past the 60 s a stalled task gets, but each photo
        // advances the progress.
        for photo in 2...4 {
            try await device.advanceClock(by: 45)
            gate.open()
            try await eventually("photo \(photo)") { log.exported == photo }
        }
        try await eventually("the export's end") { log.finished == 1 }
        try await device.advanceClock(by: 1)
        let events = try await events(device)
        #expect(events.first { $0.type == .runStarted }?.string("kind") == "continuedProcessing")
        #expect(events.filter { $0.type == .runProgress && $0.data["advanced"]?.boolValue == true }.count == 4)
        #expect(events.last { $0.type == .runProgress }?.string("subtitle") == "4 of 4")
        #expect(!events.contains { $0.type == .runExpiring })
        #expect(events.last { $0.type == .runCompleted }?.string("result") == "success")
        // The task held the app in the background; once it completed the app was suspended.
        #expect(events.last { $0.type == .appStateChanged }?.string("to") == "suspended")
        #expect(app.terminations.isEmpty)
        #expect(log.failures.isEmpty)
    }

    @Test func anExportWhoseProgressStallsIsStoppedByItsExpirationHandlerNotTheWatchdog() async throws {
        let gate = PhotoGate()
        let (device, app, delegate) = try await launchedApp(gate)
        let log = delegate.exporter.log
        try await app.run { delegate.exporter.exportTapped(photoCount: 3) }
        gate.open()
        try await eventually("the first photo") { log.exported == 1 }
        try await app.moveToBackground()
        try await device.advanceClock(by: 120)
        let events = try await events(device)
        #expect(events.last { $0.type == .runExpiring }?.string("reason") == "deadline")
        #expect(events.last { $0.type == .runCompleted }?.string("result") == "failure")
        #expect(log.failures == ["The export was stopped"])
        #expect(app.terminations.isEmpty)
        gate.open(2)  // the export's own task sees it was stopped and ends
    }

    @Test func theUserCancelsTheExportFromTheSystemsInterface() async throws {
        let gate = PhotoGate()
        let (device, app, delegate) = try await launchedApp(gate)
        let log = delegate.exporter.log
        try await app.run { delegate.exporter.exportTapped(photoCount: 5) }
        try await app.moveToBackground()
        let identifier = try #require(log.started.first)
        try await app.cancelContinuedProcessingTask(identifier: identifier)
        #expect(log.failures == ["The export was stopped"])
        let events = try await events(device)
        #expect(events.last { $0.type == .runExpiring }?.string("reason") == "userCancelled")
        #expect(events.last { $0.type == .runCompleted }?.string("result") == "failure")
        gate.open(5)
    }

    @Test func exportTappedOutsideTheForegroundIsImmediateRunIneligible() async throws {
        let (_, app, delegate) = try await launchedApp(PhotoGate())
        try await app.moveToBackground()
        try await app.run { delegate.exporter.exportTapped(photoCount: 2) }
        let log = delegate.exporter.log
        #expect(log.started.isEmpty)
        #expect(log.failures.count == 1)
        #expect(log.failures.first?.contains("immediateRunIneligible") == true)
    }
}
