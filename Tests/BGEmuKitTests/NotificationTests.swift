import Foundation
import Testing
@testable import BGEmuKit

/// UIKit's lifecycle notifications follow the delegate's callbacks. `NotificationCenter.default` is the process's:
/// each test runs in a process of its own, where no other test's app posts.
@Suite struct NotificationTests {
    @Test func R1_R2_eachLifecycleNotificationIsPostedRightAfterItsDelegateCallback() async {
        await #expect(processExitsWith: .success) { @MainActor in
            let fixture = try await HarnessFixture()
            let log = Recorder<String>()
            let delegate = LifecycleLoggingDelegate(log: log)
            fixture.app.delegate = delegate
            let names: [Notification.Name] = [
                UIApplication.didFinishLaunchingNotification, UIApplication.didBecomeActiveNotification,
                UIApplication.willResignActiveNotification, UIApplication.didEnterBackgroundNotification,
                UIApplication.willEnterForegroundNotification,
            ]
            let observers = names.map { name in
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
                    log.append(note.name.rawValue)
                }
            }
            try await fixture.app.launch { log.append("launch") }
            try await fixture.app.moveToBackground()
            try await fixture.app.moveToForeground()
            #expect(log.all == [
                "launch", "UIApplicationDidFinishLaunchingNotification",
                "didBecomeActive", "UIApplicationDidBecomeActiveNotification",
                "willResignActive", "UIApplicationWillResignActiveNotification",
                "didEnterBackground", "UIApplicationDidEnterBackgroundNotification",
                "willEnterForeground", "UIApplicationWillEnterForegroundNotification",
            ])
            observers.forEach(NotificationCenter.default.removeObserver)
        }
    }

    @Test func R8_anObserverOnTheMainOperationQueueBeginsAValidBackgroundTask() async {
        await #expect(processExitsWith: .success) {
            let fixture = try await HarnessFixture()
            let began = Recorder<UIBackgroundTaskIdentifier>()
            let observer = NotificationCenter.default.addObserver(
                forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main
            ) { _ in
                began.append(UIApplication.shared.beginBackgroundTask(withName: "save"))
            }
            try await fixture.app.launch {}
            try await fixture.app.moveToBackground()
            #expect(began.all.count == 1 && began.all.first != .invalid)
            #expect(fixture.service.calls.contains(.beginBackgroundTask))
            NotificationCenter.default.removeObserver(observer)
        }
    }
}

/// A `@MainActor` test's harness runs on the main queue (under Swift Testing, on a thread that is not the main
/// thread): an observer on the main operation queue still runs once, on the main queue, before the call returns, and
/// one with no queue runs on the main queue as on iOS, instead of the post waiting forever for the main queue.
@MainActor @Suite struct MainActorNotificationTests {
    @Test(.timeLimit(.minutes(1))) func R8_inAMainActorTestAMainQueueObserverRunsAndBeginsAValidBackgroundTask() async {
        await #expect(processExitsWith: .success) { @MainActor in
            let fixture = try await HarnessFixture()
            let began = Recorder<UIBackgroundTaskIdentifier>()
            let onMain = Recorder<Bool>()
            let observers = [
                NotificationCenter.default.addObserver(
                    forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main
                ) { _ in began.append(UIApplication.shared.beginBackgroundTask(withName: "save")) },
                NotificationCenter.default.addObserver(
                    forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil
                ) { _ in onMain.append(OperationQueue.current === OperationQueue.main) },
            ]
            try await fixture.app.launch {}
            try await fixture.app.moveToBackground()
            #expect(began.all.count == 1 && began.all.first != .invalid)
            #expect(onMain.all == [true])
            #expect(fixture.service.calls.contains(.beginBackgroundTask))
            observers.forEach(NotificationCenter.default.removeObserver)
        }
    }
}

/// Logs the delegate callbacks it gets.
final class LifecycleLoggingDelegate: UIApplicationDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in a `Recorder`.
    let log: Recorder<String>
    init(log: Recorder<String>) { self.log = log }

    func applicationDidBecomeActive(_ application: UIApplication) { log.append("didBecomeActive") }
    func applicationWillResignActive(_ application: UIApplication) { log.append("willResignActive") }
    func applicationDidEnterBackground(_ application: UIApplication) { log.append("didEnterBackground") }
    func applicationWillEnterForeground(_ application: UIApplication) { log.append("willEnterForeground") }
}
