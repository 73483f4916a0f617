import BGEmuKit
import Foundation
import Testing

/// The device's state and local notifications as app code reads and schedules them through BGEmuKit, against the
/// real executable on a loopback port.
@MainActor @Suite(.serialized) struct BGEmuKitDeviceStateEndToEndTests {
    static let key = "bgemukit-state-e2e-key-0123456789"
    static let bundleId = "com.example.state"

    func launchedApp() async throws -> (LiveService, EmulatedDevice, EmulatedApp) {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        let device = try await EmulatedDevice.create(
            server: URL(string: "http://127.0.0.1:\(service.port)")!, apiKey: Self.key, osVersion: "17.0")
        let app = try await device.install(bundleId: Self.bundleId, backgroundModes: ["fetch"])
        try await app.launch {}
        return (service, device, app)
    }

    @Test func R18_theStateTheAppReadsFollowsTheDevicesConditionsAndTheAppsSwitch() async throws {
        let (service, device, app) = try await launchedApp()
        defer { service.stop() }
        let read = {
            try await app.run {
                "\(ProcessInfo.processInfo.isLowPowerModeEnabled) \(UIApplication.shared.backgroundRefreshStatus) "
                    + "\(UIApplication.shared.isProtectedDataAvailable)"
            }
        }
        #expect(try await read() == "false available true")
        try await device.setConditions(lowPowerMode: true, locked: true)
        #expect(try await read() == "true denied false")
        try await device.setConditions(lowPowerMode: false, locked: false)
        try await app.setSettings(backgroundAppRefresh: false)
        #expect(try await read() == "false denied true")
        let changes = try await device.recordedEvents().filter { $0.type == .appSettingsChanged || $0.type == .deviceConditionsChanged }
        #expect(changes.count == 3)
    }

    @Test func R40_addSchedulesOnTheDeviceAndTheDeliveryInTheForegroundAsksTheDelegate() async throws {
        let (service, device, app) = try await launchedApp()
        defer { service.stop() }
        let delegate = PresentedRecorder()
        try await app.run {
            UNUserNotificationCenter.current().delegate = delegate
            let content = UNMutableNotificationContent()
            content.title = "Sync"
            content.body = "Done"
            UNUserNotificationCenter.current().add(UNNotificationRequest(
                identifier: "sync", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)))
        }
        let pending = try service.client(key: Self.key)
            .request("GET", "/v1/devices/\(device.id)/apps/\(Self.bundleId)/notifications").json["items"] as? [[String: Any]]
        #expect(pending?.map { $0["title"] as? String } == ["Sync"])
        try await device.advanceClock(by: 120)
        let delivered = try await device.recordedEvents().filter { $0.type == .notificationDelivered }
        #expect(delivered.map { $0.string("identifier") } == ["sync"])
        #expect(delegate.presented.all == ["sync Sync Done"])
    }
}

/// Records the notifications it is asked to present.
final class PresentedRecorder: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in a `Recorded`.
    let presented = Recorded<String>()

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        let content = notification.request.content
        presented.append("\(notification.request.identifier) \(content.title) \(content.body)")
        completionHandler([.banner])
    }
}
