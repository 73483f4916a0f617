import Testing
@testable import BGEmuKit

/// A scene-based app gets its foreground and background callbacks through its scene's delegate, as UIKit makes them.
@MainActor @Suite struct SceneTests {
    @Test func R1_aSceneBasedAppGetsTheScenesCallbacksInsteadOfTheAppDelegates() async throws {
        let fixture = try await HarnessFixture()
        let appDelegate = LoggingAppDelegate()
        let sceneDelegate = LoggingSceneDelegate()
        fixture.app.delegate = appDelegate
        fixture.app.sceneDelegate = sceneDelegate
        try await fixture.app.launch {}
        try await fixture.app.moveToBackground()
        try await fixture.app.moveToForeground()
        #expect(sceneDelegate.log.all == [
            "willConnect UIWindowSceneSessionRoleApplication", "willEnterForeground", "didBecomeActive active→foregroundActive",
            "willResignActive", "didEnterBackground", "willEnterForeground",
        ])
        #expect(appDelegate.log.all.isEmpty)
    }

    @Test func R15_sceneDidEnterBackgroundSchedulesThroughTheAppDelegate() async throws {
        let fixture = try await HarnessFixture()
        let appDelegate = LoggingAppDelegate()
        fixture.app.delegate = appDelegate
        fixture.app.sceneDelegate = LoggingSceneDelegate()
        try await fixture.app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { _ in }
        }
        try await fixture.app.moveToBackground()
        #expect(fixture.service.calls.contains(.submit(TaskRequestBody(kind: "appRefresh", identifier: HarnessFixture.refresh))))
    }
}

/// An app delegate that logs the lifecycle callbacks it gets and schedules the refresh when asked.
final class LoggingAppDelegate: UIResponder, UIApplicationDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in a `Recorder`.
    let log = Recorder<String>()

    func applicationDidBecomeActive(_ application: UIApplication) { log.append("didBecomeActive") }
    func applicationDidEnterBackground(_ application: UIApplication) { log.append("didEnterBackground") }

    func scheduleAppRefresh() {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh))
    }
}

/// A window scene delegate as Xcode's template writes it, that logs its callbacks and schedules the refresh on
/// entering the background.
final class LoggingSceneDelegate: UIResponder, UIWindowSceneDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in a `Recorder`.
    var window: UIWindow?
    let log = Recorder<String>()

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let windowScene = (scene as? UIWindowScene) else { return }
        window = UIWindow(windowScene: windowScene)
        log.append("willConnect \(session.role.rawValue)")
    }

    func sceneDidBecomeActive(_ scene: UIScene) {
        log.append("didBecomeActive \(UIApplication.shared.applicationState)→\(scene.activationState)")
    }

    func sceneWillResignActive(_ scene: UIScene) { log.append("willResignActive") }
    func sceneWillEnterForeground(_ scene: UIScene) { log.append("willEnterForeground") }

    func sceneDidEnterBackground(_ scene: UIScene) {
        log.append("didEnterBackground")
        (UIApplication.shared.delegate as? LoggingAppDelegate)?.scheduleAppRefresh()
    }
}
