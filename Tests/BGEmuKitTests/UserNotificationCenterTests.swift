import Foundation
import Testing
@testable import BGEmuKit

/// `UNUserNotificationCenter`: authorization, settings, and local notifications scheduled on the device (R40).
@MainActor @Suite struct UserNotificationCenterTests {
    @Test func requestAuthorizationGrantsAndItsCompletionRunsWithinTheLaunch() async throws {
        let fixture = try await HarnessFixture()
        let log = Recorder<String>()
        try await fixture.app.launch {
            let center = UNUserNotificationCenter.current()
            center.getNotificationSettings { log.append("before \($0.authorizationStatus)") }
            center.requestAuthorization(options: [.alert, .badge]) { granted, error in
                log.append("granted \(granted) \(error == nil)")
                center.getNotificationSettings { settings in
                    log.append("after \(settings.authorizationStatus) \(settings.alertSetting) \(settings.soundSetting)")
                }
            }
        }
        #expect(log.all == ["before notDetermined", "granted true true", "after authorized enabled disabled"])
        let settings = await fixture.app.bind { await UNUserNotificationCenter.current().notificationSettings() }
        #expect(settings.authorizationStatus == .authorized)
        #expect(try await fixture.app.bind { try await UNUserNotificationCenter.current().requestAuthorization(options: .sound) })
    }

    @Test func R40_addSchedulesTheNotificationOnTheDevice() async throws {
        let fixture = try await HarnessFixture()
        let errors = Recorder<String>()
        try await fixture.app.launch {
            let content = UNMutableNotificationContent()
            content.title = "Sync"
            content.body = "New articles"
            content.sound = .default
            let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: true)
            UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: "sync", content: content, trigger: trigger)) { error in
                errors.append("\(error.map { "\($0)" } ?? "none")")
            }
        }
        #expect(errors.all == ["none"])
        #expect(fixture.service.notifications == [LocalNotificationBody(
            identifier: "sync", timeInterval: 3600, repeats: true, title: "Sync", body: "New articles")])
        try await fixture.app.run { UNUserNotificationCenter.current().removePendingNotificationRequests(withIdentifiers: ["sync"]) }
        #expect(fixture.service.notifications.isEmpty)
    }

    @Test func R40_aCalendarTriggerIsScheduledAtItsNextMatchOnTheDevicesClockAndNoTriggerAtOnce() async throws {
        let fixture = try await HarnessFixture()
        try await fixture.app.launch {}
        try await fixture.app.bind {
            let content = UNMutableNotificationContent()
            var morning = DateComponents()
            morning.hour = 8
            let trigger = UNCalendarNotificationTrigger(dateMatching: morning, repeats: false)
            try await UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: "am", content: content, trigger: trigger))
            try await UNUserNotificationCenter.current().add(UNNotificationRequest(identifier: "now", content: content, trigger: nil))
        }
        let expected = Calendar.current.nextDate(after: fixture.service.virtualNow, matching: DateComponents(hour: 8), matchingPolicy: .nextTime)
        #expect(fixture.service.notifications.map(\.identifier) == ["am", "now"])
        #expect(fixture.service.notifications.first?.fireDate == expected)
        #expect(fixture.service.notifications.last?.timeInterval == 0.001)
    }

    @Test func R40_aNotificationDeliveredWhileTheAppIsActiveAsksTheDelegateWithTheAddedRequest() async throws {
        let fixture = try await HarnessFixture()
        let delegate = PresentingDelegate()
        try await fixture.app.launch {
            UNUserNotificationCenter.current().delegate = delegate
            let content = UNMutableNotificationContent()
            content.title = "Sync"
            UNUserNotificationCenter.current().add(UNNotificationRequest(
                identifier: "sync", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 5, repeats: false)))
        }
        fixture.service.script.append([("notification.delivered", fixture.app.bundleId, [
            "source": .string("local"), "identifier": .string("sync"), "appState": .string("active"),
        ])])
        try await fixture.device.advanceClock(by: 10)
        #expect(delegate.presented.all == ["sync Sync"])
        fixture.service.script.append([("notification.delivered", fixture.app.bundleId, [
            "source": .string("local"), "identifier": .string("sync"), "appState": .string("background"),
        ])])
        try await fixture.device.advanceClock(by: 10)
        #expect(delegate.presented.all == ["sync Sync"])
    }
}

/// Records what it is asked to present.
final class PresentingDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in a `Recorder`.
    let presented = Recorder<String>()

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        presented.append("\(notification.request.identifier) \(notification.request.content.title)")
        completionHandler([.banner, .sound])
    }
}
