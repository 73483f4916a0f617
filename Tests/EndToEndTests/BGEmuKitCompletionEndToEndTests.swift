import BGEmuKit
import Dispatch
import Foundation
import Testing

/// Against the real executable: the app keeps running until its current work has returned (R23), and code on the
/// main queue means the app the process drives. In the serialized suite of `BGEmuKitEndToEndTests`.
extension BGEmuKitEndToEndTests {
    @Test func R23_aSubmitOnTheLineAfterSetTaskCompletedIsAcceptedAndTheRequestStaysScheduled() async throws {
        let service = try start()
        defer { service.stop() }
        let device = try await device(service)
        let app = try await device.install(infoPlist: Self.plist, bundleId: Self.bundleId)
        let handled = Recorded<String>()
        try await app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
                handled.append("refresh")
                task.setTaskCompleted(success: true)
                do { try Self.scheduleRefresh() } catch { handled.append("resubmit failed: \(error)") }
            }
            try Self.scheduleRefresh()
        }
        try await app.moveToBackground()
        try await device.advanceClock(by: 3600)

        #expect(handled.all.count >= 2 && handled.all.allSatisfy { $0 == "refresh" }, "\(handled.all)")
        let runs = try api(service, device, "/runs")["items"] as? [[String: Any]] ?? []
        #expect(runs.count == handled.all.count)
        #expect(runs.allSatisfy { $0["state"] as? String == "completed" && $0["result"] as? String == "success" })
        let pending = try api(service, device, "/task-requests")["items"] as? [[String: Any]] ?? []
        #expect(pending.map { $0["identifier"] as? String } == [Self.refresh])
        #expect(try api(service, device, "")["state"] as? String == "suspended")
        // The resubmit reached the device before the run's end, at the same virtual instant.
        let events = try await device.recordedEvents().filter { $0.type == .taskRequestSubmitted || $0.type == .runCompleted }
        let first = try #require(events.firstIndex { $0.type == .runCompleted })
        #expect(events[first - 1].type == .taskRequestSubmitted && events[first - 1].at == events[first].at)
    }

    /// In a process of its own (`processExitsWith`): code on the main queue means the app the process drives, which
    /// the process of the whole test run, driving devices of other suites in parallel, cannot tell.
    @Test func R8_R11_beginBackgroundTaskInAMainQueueBlockOfDidEnterBackgroundIsValidAndExpiresAtTheAllowance() async {
        await #expect(processExitsWith: .success) {
            let suite = BGEmuKitEndToEndTests()
            let service = try suite.start()
            defer { service.stop() }
            let device = try await suite.device(service)
            let app = try await device.install(infoPlist: Self.plist, bundleId: Self.bundleId)
            let delegate = MainQueueSaver()
            app.delegate = delegate
            try await app.launch {}
            let leftAt = try await device.now
            try await app.moveToBackground()
            let began = try #require(delegate.task.all.first)
            #expect(began != .invalid)
            try await device.advanceClock(by: 120)
            // ios13: the allowance is 30 s, its warning 5 s before the end (R9, R11).
            #expect(delegate.log.all == ["expiring at \(VirtualClock.text(leftAt.addingTimeInterval(25)))"])
            #expect(app.terminations.isEmpty)
            #expect(try suite.api(service, device, "")["state"] as? String == "suspended")
        }
    }
}

/// Saves its state under a background task begun in a main-queue block of `applicationDidEnterBackground`, and ends
/// the task in its expiration handler.
final class MainQueueSaver: UIApplicationDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in `Recorded`s.
    let log = Recorded<String>()
    let task = Recorded<UIBackgroundTaskIdentifier>()

    func applicationDidEnterBackground(_ application: UIApplication) {
        DispatchQueue.main.async { [log, task] in
            let id = UIApplication.shared.beginBackgroundTask(withName: "save") {
                log.append("expiring at \(EmulatedDevice.currentDate.map(VirtualClock.text) ?? "?")")
                if let id = task.all.first { UIApplication.shared.endBackgroundTask(id) }
            }
            task.append(id)
        }
    }
}
