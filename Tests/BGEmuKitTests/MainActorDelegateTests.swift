import Dispatch
import Testing
@testable import BGEmuKit

/// An `AppDelegate` written for Swift 6 as Apple's UIKit types it (`@MainActor`, state that is not `Sendable`)
/// compiles unchanged, and its callbacks run on the main queue, whether or not the test itself is on the main actor.
@MainActor final class SwiftSixAppDelegate: UIResponder, UIApplicationDelegate {
    var calls: [String] = []  // main-actor state, no lock: UIKit's delegates are main-actor types

    func applicationDidBecomeActive(_ application: UIApplication) { record("didBecomeActive") }
    func applicationDidEnterBackground(_ application: UIApplication) { record("didEnterBackground") }

    private func record(_ call: String) {
        dispatchPrecondition(condition: .onQueue(.main))
        calls.append(call)
    }
}

@MainActor final class SwiftSixSceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?
    var phases: [String] = []

    func sceneDidEnterBackground(_ scene: UIScene) {
        dispatchPrecondition(condition: .onQueue(.main))
        phases.append("background")
    }
}

@Suite struct MainActorDelegateTests {
    @MainActor @Test func aMainActorTestsDelegateGetsItsCallbacksOnTheMainActor() async throws {
        let fixture = try await HarnessFixture()
        let delegate = SwiftSixAppDelegate()
        fixture.app.delegate = delegate
        try await fixture.app.launch {}
        try await fixture.app.moveToBackground()
        #expect(delegate.calls == ["didBecomeActive", "didEnterBackground"])
    }

    @Test func aTestOffTheMainActorStillHasTheCallbacksMadeOnTheMainQueue() async throws {
        let fixture = try await HarnessFixture()
        let delegate = await MainActor.run { SwiftSixAppDelegate() }
        await MainActor.run { fixture.app.delegate = delegate }
        try await fixture.app.launch {}
        try await fixture.app.moveToBackground()
        #expect(await MainActor.run { delegate.calls } == ["didBecomeActive", "didEnterBackground"])
    }

    @MainActor @Test func connectedScenesIsTheWindowSceneOnceASceneAppLaunched() async throws {
        let fixture = try await HarnessFixture()
        let scene = SwiftSixSceneDelegate()
        fixture.app.sceneDelegate = scene
        let before = try await fixture.app.run { UIApplication.shared.connectedScenes.count }
        try await fixture.app.launch {}
        let after = try await fixture.app.run { UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }.count }
        try await fixture.app.moveToBackground()
        #expect(before == 0 && after == 1)
        #expect(scene.phases == ["background"])
    }

    @Test func setBadgeCountIsKeptForTheTest() async throws {
        let fixture = try await HarnessFixture()
        try await fixture.app.launch {}
        let badges = try await fixture.app.run { () -> [Int] in
            let center = UNUserNotificationCenter.current()
            center.setBadgeCount(3)
            let set = center.badgeCount
            center.setBadgeCount(0)
            return [set, center.badgeCount]
        }
        #expect(badges == [3, 0])
    }
}
