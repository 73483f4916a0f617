import Foundation
import Testing
@testable import BGEmuKit

/// Registration for remote notifications and the silent push's completion (R29–R31).
@Suite struct RemoteNotificationTests {
    @Test func registerForRemoteNotificationsGivesTheDelegateTheSameTokenEveryRunWithinTheLaunch() async throws {
        let fixture = try await HarnessFixture()
        let delegate = RegisteringDelegate()
        fixture.app.delegate = delegate
        try await fixture.app.launch { UIApplication.shared.registerForRemoteNotifications() }
        #expect(delegate.tokens.all.count == 1)
        #expect(delegate.tokens.all.first?.count == 32)
        let again = UIApplication.deviceToken(deviceId: fixture.device.id, bundleId: fixture.app.bundleId)
        #expect(delegate.tokens.all.first == again)
        #expect(again != UIApplication.deviceToken(deviceId: fixture.device.id, bundleId: "com.example.other"))
        #expect(try await fixture.app.run { UIApplication.shared.isRegisteredForRemoteNotifications })
        try await fixture.app.run { UIApplication.shared.unregisterForRemoteNotifications() }
        #expect(try await fixture.app.run { UIApplication.shared.isRegisteredForRemoteNotifications } == false)
    }

    @Test func R31_aSilentPushsCompletionHandlerCompletesTheRunWithNewData() async throws {
        let fixture = try await HarnessFixture()
        let delegate = RegisteringDelegate()
        fixture.app.delegate = delegate
        try await fixture.app.launch { UIApplication.shared.registerForRemoteNotifications() }
        try await fixture.app.moveToBackground()
        try await fixture.device.push(["aps": ["content-available": 1]], to: fixture.app)
        #expect(fixture.service.calls.contains(.complete("run_push", .fetchResult("newData"))))
    }
}

/// Keeps the device tokens it gets and answers a push with new data, on the main queue.
final class RegisteringDelegate: UIApplicationDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in a `Recorder`.
    let tokens = Recorder<Data>()

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        tokens.append(deviceToken)
    }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        nonisolated(unsafe) let completion = completionHandler
        DispatchQueue.main.async { completion(.newData) }
    }
}
