import Foundation
import Testing
@testable import BGEmuKit

/// The harness answers the device's events with the app's code, and the app's answers reach the service before
/// the harness call returns.
@Suite struct DispatchTests {
    @Test func R20_aRunStartedCallsTheRegisteredHandlerWithTheTaskOfItsKind() async throws {
        let fixture = try await HarnessFixture()
        let seen = Recorder<String>()
        try await fixture.app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { task in
                seen.append("\(type(of: task)) \(task.identifier)")
            }
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.cleanup, using: nil) { task in
                seen.append("\(type(of: task)) \(task.identifier)")
            }
        }
        fixture.scriptRun("run_1", kind: "appRefresh", identifier: HarnessFixture.refresh)
        fixture.scriptRun("run_2", kind: "processing", identifier: HarnessFixture.cleanup)
        try await fixture.device.advanceClock(by: 3600)
        #expect(seen.all == ["BGAppRefreshTask \(HarnessFixture.refresh)", "BGProcessingTask \(HarnessFixture.cleanup)"])
        // Two stops, then the advance that reaches the target.
        #expect(fixture.service.calls.filter { $0 == .advance(stop: true) }.count == 3)
    }

    @Test func R23_setTaskCompletedCompletesTheRunOnTheServiceOnce() async throws {
        let fixture = try await HarnessFixture()
        try await fixture.app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { task in
                task.setTaskCompleted(success: true)
                task.setTaskCompleted(success: false)
            }
        }
        fixture.scriptRun("run_1", kind: "appRefresh", identifier: HarnessFixture.refresh)
        try await fixture.device.advanceClock(by: 60)
        #expect(fixture.service.calls.filter { if case .complete = $0 { true } else { false } } == [.complete("run_1", .success(true))])
    }

    @Test func R22_runExpiringCallsTheTasksExpirationHandler() async throws {
        let fixture = try await HarnessFixture()
        let expired = Recorder<String>()
        try await fixture.app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { task in
                task.expirationHandler = {
                    expired.append(task.identifier)
                    task.setTaskCompleted(success: false)
                }
            }
        }
        fixture.scriptRun("run_1", kind: "appRefresh", identifier: HarnessFixture.refresh)
        fixture.service.script.append([("run.expiring", fixture.app.bundleId, ["runId": .string("run_1"), "reason": .string("deadline")])])
        try await fixture.device.advanceClock(by: 60)
        #expect(expired.all == [HarnessFixture.refresh])
        #expect(fixture.service.calls.contains(.complete("run_1", .success(false))))
    }

    @Test func R16_registerOutsideTheLaunchOrForAnUnpermittedIdentifierAnswersFalse() async throws {
        let fixture = try await HarnessFixture()
        let answers = Recorder<Bool>()
        try await fixture.app.launch {
            answers.append(BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.news.other", using: nil) { _ in })
            answers.append(BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { _ in })
            answers.append(BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { _ in })
        }
        let late = try await fixture.app.run {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.cleanup, using: nil) { _ in }
        }
        #expect(answers.all == [false, true, false])
        #expect(!late)
        // The launch told the service what the app registered during it (R16).
        #expect(fixture.service.calls.first == .launch([HarnessFixture.refresh]))
    }

    @Test func R16_aSubmitDuringTheLaunchIsSentAfterTheLaunchWithWhatWasRegisteredBeforeIt() async throws {
        let fixture = try await HarnessFixture()
        try await fixture.app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { _ in }
            try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh))
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.cleanup, using: nil) { _ in }
        }
        let calls = fixture.service.calls
        #expect(calls.count == 2)
        #expect(calls.first == .launch([HarnessFixture.refresh]))
        #expect(fixture.app.registeredIdentifiers == [HarnessFixture.refresh, HarnessFixture.cleanup])
    }

    @Test func R18_aRefusedSubmitThrowsTheSchedulersError() async throws {
        let fixture = try await HarnessFixture()
        fixture.service.refusal = (409, "unavailable")
        let thrown = Recorder<String>()
        try await fixture.app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { _ in }
            do {
                try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh))
            } catch BGTaskScheduler.Error.unavailable {
                thrown.append("unavailable")
            }
        }
        #expect(thrown.all == ["unavailable"])
    }

    @Test func R3_aSystemLaunchRunsTheLaunchClosureAgainButTheHarnesssOwnLaunchDoesNot() async throws {
        let fixture = try await HarnessFixture()
        let launches = Recorder<Int>()
        let handled = Recorder<String>()
        try await fixture.app.launch {
            launches.append(1)
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { task in
                handled.append(task.identifier)
                task.setTaskCompleted(success: true)
            }
        }
        #expect(launches.all.count == 1)
        try await fixture.app.terminate()
        #expect(fixture.app.registeredIdentifiers.isEmpty)
        #expect(fixture.app.terminations.map(\.reason) == ["memoryPressure"])
        let bundle = fixture.app.bundleId
        fixture.service.script.append([
            ("app.delegate", bundle, ["callback": .string("didFinishLaunching"), "launchedBy": .string("system")]),
            ("app.stateChanged", bundle, ["from": .string("notRunning"), "to": .string("background")]),
            ("run.started", bundle, ["runId": .string("run_1"), "kind": .string("appRefresh"),
                                     "identifier": .string(HarnessFixture.refresh), "launchedApp": .bool(true)]),
        ])
        try await fixture.device.advanceClock(by: 900)
        #expect(launches.all.count == 2)
        #expect(handled.all == [HarnessFixture.refresh])
        #expect(fixture.service.calls.contains(.complete("run_1", .success(true))))
    }

    @Test func R11_aBackgroundTasksExpirationHandlerRunsAndEndsIt() async throws {
        let fixture = try await HarnessFixture()
        let delegate = EndingDelegate()
        fixture.app.delegate = delegate
        try await fixture.app.launch {}
        try await fixture.app.moveToBackground()
        let began = try #require(delegate.identifiers.all.first)
        #expect(began != .invalid)
        fixture.service.script.append([("backgroundTask.expiring", fixture.app.bundleId, ["taskId": .string("bgt_1")])])
        try await fixture.device.advanceClock(by: 30)
        #expect(delegate.expired.all == [began])
        #expect(fixture.service.calls.contains(.endBackgroundTask("bgt_1")))
        // Ended, the identifier is no longer open: a second end sends nothing.
        UIApplication.shared.endBackgroundTask(began)
        #expect(fixture.service.calls.filter { $0 == .endBackgroundTask("bgt_1") }.count == 1)
    }

    @Test func R28_aFetchRunCallsTheDelegateAndItsCompletionCompletesTheRun() async throws {
        let fixture = try await HarnessFixture()
        let delegate = EndingDelegate()
        try await fixture.app.launch {
            UIApplication.shared.delegate = delegate
            UIApplication.shared.setMinimumBackgroundFetchInterval(UIApplication.backgroundFetchIntervalMinimum)
        }
        #expect(fixture.app.delegate === delegate)
        #expect(fixture.service.calls.contains(.fetchInterval(.string("minimum"))))
        fixture.scriptRun("run_7", kind: "fetch", identifier: nil)
        try await fixture.device.advanceClock(by: 900)
        #expect(fixture.service.calls.contains(.complete("run_7", .fetchResult("newData"))))
    }
}

extension DispatchTests {
    @Test func R31_aSilentPushCallsTheDelegateWithThePayloadAndItsCompletionCompletesTheRun() async throws {
        let fixture = try await HarnessFixture()
        let delegate = PushDelegate()
        fixture.app.delegate = delegate
        try await fixture.app.launch {}
        try await fixture.app.moveToBackground()
        try await fixture.device.push(["aps": ["content-available": 1], "article": "42"], to: fixture.app)
        #expect(delegate.articles.all == ["42"])
        #expect(fixture.service.calls.contains(.complete("run_push", .fetchResult("noData"))))
    }
}

/// Reads the payload's `article` and answers no data.
final class PushDelegate: UIApplicationDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in a `Recorder`.
    let articles = Recorder<String>()

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        articles.append(userInfo["article"] as? String ?? "?")
        completionHandler(.noData)
        completionHandler(.newData)
    }
}

/// A delegate that begins a background task on entering the background and ends it in its expiration handler,
/// and answers a fetch with new data.
final class EndingDelegate: UIApplicationDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in `Recorder`s.
    let identifiers = Recorder<UIBackgroundTaskIdentifier>()
    let expired = Recorder<UIBackgroundTaskIdentifier>()

    func applicationDidEnterBackground(_ application: UIApplication) {
        let box = Recorder<UIBackgroundTaskIdentifier>()
        let id = application.beginBackgroundTask(withName: "save") { [expired] in
            guard let id = box.all.first else { return }
            expired.append(id)
            UIApplication.shared.endBackgroundTask(id)
        }
        box.append(id)
        identifiers.append(id)
    }

    func application(
        _ application: UIApplication, performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        completionHandler(.newData)
    }
}
