import Foundation
import Testing
@testable import BGEmuKit

/// What app code reads of the device's state follows the device (R18, R25), read in the app's turn.
@Suite struct DeviceStateTests {
    @Test func R18_isLowPowerModeEnabledFollowsTheDevicesCondition() async throws {
        let fixture = try await HarnessFixture()
        try await fixture.app.launch {}
        #expect(try await fixture.app.run { ProcessInfo.processInfo.isLowPowerModeEnabled } == false)
        try await fixture.device.setConditions(lowPowerMode: true)
        #expect(try await fixture.app.run { ProcessInfo.processInfo.isLowPowerModeEnabled } == true)
    }

    @Test func R18_backgroundRefreshStatusIsDeniedByEitherSwitchOrLowPowerMode() async throws {
        let fixture = try await HarnessFixture()
        try await fixture.app.launch {}
        let status = { try await fixture.app.run { UIApplication.shared.backgroundRefreshStatus } }
        #expect(try await status() == .available)
        try await fixture.device.setConditions(backgroundAppRefresh: false)
        #expect(try await status() == .denied)
        try await fixture.device.setConditions(lowPowerMode: true, backgroundAppRefresh: true)
        #expect(try await status() == .denied)
        try await fixture.device.setConditions(lowPowerMode: false)
        try await fixture.app.setSettings(backgroundAppRefresh: false)
        #expect(try await status() == .denied)
        try await fixture.app.setSettings(backgroundAppRefresh: true)
        #expect(try await status() == .available)
    }

    @Test func isProtectedDataAvailableIsFalseWhileTheDeviceIsLocked() async throws {
        let fixture = try await HarnessFixture()
        try await fixture.app.launch {}
        #expect(try await fixture.app.run { UIApplication.shared.isProtectedDataAvailable } == true)
        try await fixture.device.setConditions(locked: true)
        #expect(try await fixture.app.run { UIApplication.shared.isProtectedDataAvailable } == false)
    }

    @Test func aStateChangeMapsToUIKitsAndFoundationsNotifications() {
        let event = DeviceEvent(id: 1, type: .deviceConditionsChanged, bundleId: nil, at: Date(), data: ["changes": .object([
            "lowPowerMode": .object(["from": .bool(false), "to": .bool(true)]),
            "locked": .object(["from": .bool(false), "to": .bool(true)]),
            "batteryLevel": .object(["from": .number(80), "to": .number(20)]),
        ])])
        #expect(EmulatedApp.stateNotifications(for: event) == [
            .NSProcessInfoPowerStateDidChange, UIApplication.backgroundRefreshStatusDidChangeNotification,
            UIApplication.protectedDataWillBecomeUnavailableNotification,
        ])
        let unlock = DeviceEvent(id: 2, type: .deviceConditionsChanged, bundleId: nil, at: Date(), data: ["changes": .object([
            "locked": .object(["from": .bool(true), "to": .bool(false)]),
            "backgroundAppRefresh": .object(["from": .bool(true), "to": .bool(false)]),
        ])])
        #expect(EmulatedApp.stateNotifications(for: unlock) == [
            UIApplication.backgroundRefreshStatusDidChangeNotification, UIApplication.protectedDataDidBecomeAvailableNotification,
        ])
        let setting = DeviceEvent(id: 3, type: .appSettingsChanged, bundleId: "a", at: Date(), data: ["backgroundAppRefresh": .bool(false)])
        #expect(EmulatedApp.stateNotifications(for: setting) == [UIApplication.backgroundRefreshStatusDidChangeNotification])
    }
}

/// The notifications, each test in a process of its own (`NotificationCenter.default` is the process's).
@Suite struct DeviceStateNotificationTests {
    @Test func R18_turningLowPowerModeOnPostsThePowerStateAndRefreshStatusChangesToARunningApp() async {
        await #expect(processExitsWith: .success) {
            let fixture = try await HarnessFixture()
            let log = Recorder<String>()
            let observers = [Notification.Name.NSProcessInfoPowerStateDidChange, UIApplication.backgroundRefreshStatusDidChangeNotification]
                .map { name in
                    NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
                        log.append("\(note.name.rawValue) \(ProcessInfo.processInfo.isLowPowerModeEnabled) "
                                   + "\(UIApplication.shared.backgroundRefreshStatus)")
                    }
                }
            try await fixture.app.launch {}
            try await fixture.device.setConditions(lowPowerMode: true)
            #expect(log.all == [
                "NSProcessInfoPowerStateDidChangeNotification true denied",
                "UIApplicationBackgroundRefreshStatusDidChangeNotification true denied",
            ])
            observers.forEach(NotificationCenter.default.removeObserver)
        }
    }

    @Test func R18_theAppsOwnSwitchPostsTheRefreshStatusChange() async {
        await #expect(processExitsWith: .success) {
            let fixture = try await HarnessFixture()
            let log = Recorder<UIBackgroundRefreshStatus>()
            let observer = NotificationCenter.default.addObserver(
                forName: UIApplication.backgroundRefreshStatusDidChangeNotification, object: nil, queue: .main
            ) { _ in log.append(UIApplication.shared.backgroundRefreshStatus) }
            try await fixture.app.launch {}
            try await fixture.app.setSettings(backgroundAppRefresh: false)
            #expect(log.all == [.denied])
            NotificationCenter.default.removeObserver(observer)
        }
    }

    @Test func R18_noRefreshStatusChangeIsPostedWhenTheStatusStaysTheSame() async {
        await #expect(processExitsWith: .success) {
            let fixture = try await HarnessFixture()
            let log = Recorder<String>()
            let names = [Notification.Name.NSProcessInfoPowerStateDidChange, UIApplication.backgroundRefreshStatusDidChangeNotification]
            let observers = names.map { name in
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { log.append($0.name.rawValue) }
            }
            try await fixture.app.launch {}
            try await fixture.device.setConditions(backgroundAppRefresh: false)
            try await fixture.app.setSettings(backgroundAppRefresh: false)  // denied already
            try await fixture.device.setConditions(lowPowerMode: true)  // denied already
            try await fixture.device.setConditions(backgroundAppRefresh: true)  // the app's switch and Low Power Mode deny
            #expect(log.all == [
                "UIApplicationBackgroundRefreshStatusDidChangeNotification", "NSProcessInfoPowerStateDidChangeNotification",
            ])
            observers.forEach(NotificationCenter.default.removeObserver)
        }
    }

    @Test func theLockPostsProtectedDataWillBecomeUnavailableAndTheUnlockDidBecomeAvailable() async {
        await #expect(processExitsWith: .success) {
            let fixture = try await HarnessFixture()
            let log = Recorder<String>()
            let names = [UIApplication.protectedDataWillBecomeUnavailableNotification, UIApplication.protectedDataDidBecomeAvailableNotification]
            let observers = names.map { name in
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
                    log.append("\(note.name.rawValue) \(UIApplication.shared.isProtectedDataAvailable)")
                }
            }
            try await fixture.app.launch {}
            try await fixture.device.setConditions(locked: true)
            try await fixture.device.setConditions(locked: false)
            #expect(log.all == [
                "UIApplicationProtectedDataWillBecomeUnavailable false", "UIApplicationProtectedDataDidBecomeAvailable true",
            ])
            observers.forEach(NotificationCenter.default.removeObserver)
        }
    }

    @Test func aSuspendedAppGetsWhatItMissedOnceWhenItRunsAgainAndAnAppNotRunningGetsNothing() async {
        await #expect(processExitsWith: .success) {
            let fixture = try await HarnessFixture()
            let log = Recorder<String>()
            let observer = NotificationCenter.default.addObserver(
                forName: .NSProcessInfoPowerStateDidChange, object: nil, queue: nil
            ) { _ in log.append("powerStateDidChange") }
            try await fixture.device.setConditions(lowPowerMode: true)
            #expect(log.all.isEmpty)
            try await fixture.app.launch {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { task in
                    log.append("handler")
                    task.setTaskCompleted(success: true)
                }
            }
            try await fixture.app.moveToBackground()
            fixture.service.script.append([("app.stateChanged", fixture.app.bundleId, ["to": .string("suspended")])])
            try await fixture.device.advanceClock(by: 10)
            try await fixture.device.setConditions(lowPowerMode: false)
            try await fixture.device.setConditions(lowPowerMode: true)
            #expect(log.all.isEmpty)
            fixture.scriptRun("run_1", kind: "appRefresh", identifier: HarnessFixture.refresh)
            try await fixture.device.advanceClock(by: 10)
            #expect(log.all == ["powerStateDidChange", "handler"])
            NotificationCenter.default.removeObserver(observer)
        }
    }

    @Test func aDeviceEventReachesEveryAppOfTheDevice() async {
        await #expect(processExitsWith: .success) { @MainActor in
            let fixture = try await HarnessFixture()
            let other = try await fixture.device.install(
                bundleId: "com.example.mail", backgroundModes: ["fetch"], permittedIdentifiers: [])
            let news = LifecycleLoggingDelegate(log: Recorder())
            let mail = LifecycleLoggingDelegate(log: Recorder())
            fixture.app.delegate = news
            other.delegate = mail
            let log = Recorder<String>()
            let observer = NotificationCenter.default.addObserver(
                forName: UIApplication.protectedDataWillBecomeUnavailableNotification, object: nil, queue: nil
            ) { _ in log.append(UIApplication.shared.delegate === news ? "news" : UIApplication.shared.delegate === mail ? "mail" : "?") }
            try await fixture.app.launch {}
            try await other.launch {}
            try await fixture.device.setConditions(locked: true)
            #expect(log.all.sorted() == ["mail", "news"])
            NotificationCenter.default.removeObserver(observer)
        }
    }

    @Test func isLowPowerModeEnabledIsFalseInAProcessThatLaunchedNoApp() async {
        await #expect(processExitsWith: .success) {
            #expect(ProcessInfo.processInfo.isLowPowerModeEnabled == false)
        }
    }
}
