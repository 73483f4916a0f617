import Foundation
import Testing
@testable import BGEmuKit

/// A delegate as an iOS app writes it: a plain class, not `Sendable`.
final class PlainDelegate: UIApplicationDelegate {
    var entered = 0
    func applicationDidEnterBackground(_ application: UIApplication) { entered += 1 }
}

/// Every harness call takes the caller's isolation (`#isolation`): a `@MainActor` test hands it closures that
/// capture its own variables and a delegate that is not `Sendable` (this file compiles only so), and the app's code
/// runs within the call, on the test's actor.
@Suite struct AppCodeIsolationTests {
    @MainActor @Test func aMainActorTestDrivesAppCodeThatIsNotSendable() async throws {
        let fixture = try await HarnessFixture()
        let delegate = PlainDelegate()
        var launches = 0
        var handled: [String] = []
        try await fixture.app.launch {
            launches += 1
            UIApplication.shared.delegate = delegate
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: .main) { task in
                handled.append(task.identifier)
                task.setTaskCompleted(success: true)
            }
        }
        try await fixture.app.moveToBackground()
        fixture.scriptRun("run_1", kind: "appRefresh", identifier: HarnessFixture.refresh)
        try await fixture.device.advanceClock(by: 60)
        // The run completed, the app is suspended: back in the foreground its code runs again.
        try await fixture.app.moveToForeground()
        let submitted = try await fixture.app.run { () -> Bool in
            (try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh))) != nil
        }
        #expect(launches == 1)
        #expect(delegate.entered == 1)
        #expect(handled == [HarnessFixture.refresh])
        #expect(submitted)
    }
}
