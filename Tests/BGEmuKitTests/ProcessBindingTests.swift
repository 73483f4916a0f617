import Dispatch
import Foundation
import Testing
@testable import BGEmuKit

/// Whom app code outside the harness's tasks means: the app whose turn runs, else the app launched last; never a
/// guess when devices are driven at once.
@Suite struct ProcessBindingTests {
    func bundleId(_ resolution: ProcessBinding.Resolution) -> String {
        switch resolution {
        case .app(let app): app.bundleId
        case .unbound: "unbound"
        case .ambiguous(let why): "ambiguous: \(why)"
        }
    }

    @Test func noAppLaunchedIsUnbound() {
        #expect(bundleId(ProcessBinding().resolve()) == "unbound")
    }

    @Test func theAppLaunchedLastIsTheProcesssApp() async throws {
        let binding = ProcessBinding()
        let first = try await HarnessFixture(), second = try await HarnessFixture(bundleId: "com.example.mail")
        binding.launched(first.app)
        binding.launched(second.app)
        #expect(bundleId(binding.resolve()) == "com.example.mail")
    }

    @Test func theAppWhoseTurnRunsWinsOverTheAppLaunchedLast() async throws {
        let binding = ProcessBinding()
        let first = try await HarnessFixture(), second = try await HarnessFixture(bundleId: "com.example.mail")
        binding.launched(second.app)
        binding.openTurn(first.app)
        #expect(bundleId(binding.resolve()) == "com.example.news")
        binding.closeTurn(first.app)
        #expect(bundleId(binding.resolve()) == "com.example.mail")
    }

    @Test func turnsOfTwoAppsAtOnceAreAmbiguous() async throws {
        let binding = ProcessBinding()
        let first = try await HarnessFixture(), second = try await HarnessFixture(bundleId: "com.example.mail")
        binding.openTurn(first.app)
        binding.openTurn(second.app)
        #expect(bundleId(binding.resolve()) == "ambiguous: the turns of com.example.mail and com.example.news run at once")
    }

    @Test func harnessCallsOfTwoDevicesThatOverlapMakeItAmbiguousForTheRestOfTheProcess() async throws {
        let binding = ProcessBinding()
        let first = try await HarnessFixture(), second = try await HarnessFixture(bundleId: "com.example.mail")
        binding.launched(first.app)
        binding.enter(first.device)
        binding.enter(second.device)
        binding.leave(second.device)
        binding.leave(first.device)
        binding.launched(second.app)
        #expect(bundleId(binding.resolve()).hasPrefix("ambiguous: devices "))
    }

    @Test func harnessCallsOfOneDeviceAfterAnotherKeepTheBinding() async throws {
        let binding = ProcessBinding()
        let first = try await HarnessFixture(), second = try await HarnessFixture(bundleId: "com.example.mail")
        binding.enter(first.device)
        binding.enter(first.device)
        binding.leave(first.device)
        binding.leave(first.device)
        binding.enter(second.device)
        binding.leave(second.device)
        binding.launched(second.app)
        #expect(bundleId(binding.resolve()) == "com.example.mail")
    }
}

/// The process-wide binding end to end, each in a process of its own (`processExitsWith`): the tests of this
/// target drive devices in parallel, which makes unscoped code ambiguous in their process.
@Suite struct ProcessBindingExitTests {
    @Test func codeOnTheMainQueueASerialQueueAndAThreadCallsTheAppTheProcessDrives() async {
        await #expect(processExitsWith: .success) {
            let fixture = try await HarnessFixture()
            try await fixture.app.launch {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { _ in }
                BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.cleanup, using: nil) { _ in }
            }
            let thrown = Recorder<String>()
            let submit: @Sendable (String) -> Void = { identifier in
                do { try BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: identifier)) } catch {
                    thrown.append("\(error)")
                }
            }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.main.async { submit(HarnessFixture.refresh); done.resume() }
            }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue(label: "com.example.news.scheduler").async { submit(HarnessFixture.cleanup); done.resume() }
            }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread { submit(HarnessFixture.cleanup); done.resume() }.start()
            }
            #expect(thrown.all.isEmpty)
            let submitted = fixture.service.calls.compactMap { if case .submit(let body) = $0 { body.identifier } else { nil } }
            #expect(submitted == [HarnessFixture.refresh, HarnessFixture.cleanup, HarnessFixture.cleanup])
        }
    }

    @Test func R8_beginBackgroundTaskInAMainQueueBlockOfDidEnterBackgroundReturnsAValidIdentifierThatExpires() async {
        await #expect(processExitsWith: .success) {
            let fixture = try await HarnessFixture()
            let delegate = MainQueueSavingDelegate()
            fixture.app.delegate = delegate
            try await fixture.app.launch {}
            try await fixture.app.moveToBackground()
            let began = try #require(delegate.identifiers.all.first)
            #expect(began != .invalid)
            fixture.service.script.append([("backgroundTask.expiring", fixture.app.bundleId, ["taskId": .string("bgt_1")])])
            try await fixture.device.advanceClock(by: 30)
            #expect(delegate.expired.all == [began])
            #expect(fixture.service.calls.contains(.endBackgroundTask("bgt_1")))
        }
    }

    @Test func aLaunchHandlersQueuedSubmitAfterSetTaskCompletedIsAcceptedBeforeTheAppIsSuspended() async {
        await #expect(processExitsWith: .success) {
            let fixture = try await HarnessFixture()
            let queue = DispatchQueue(label: "com.example.news.refresh")
            let thrown = Recorder<String>()
            try await fixture.app.launch {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: queue) { task in
                    task.setTaskCompleted(success: true)
                    queue.async {
                        do { try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh)) } catch {
                            thrown.append("\(error)")
                        }
                    }
                }
            }
            try await fixture.app.moveToBackground()
            fixture.scriptRun("run_1", kind: "appRefresh", identifier: HarnessFixture.refresh)
            try await fixture.device.advanceClock(by: 60)
            #expect(thrown.all.isEmpty)
            let sent = fixture.service.submitsAndCompletions
            #expect(sent == [.submit(TaskRequestBody(kind: "appRefresh", identifier: HarnessFixture.refresh)), .complete("run_1", .success(true))])
            #expect(fixture.service.appState(fixture.app.bundleId) == "suspended")
        }
    }

    @Test func aCallNoAppCanBeToldForStopsTheProcessSayingHowToBindIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "com.example.news.refresh"))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("BGEmuKit: BGTaskScheduler.shared.submit(_:) was called by code no app is bound to"))
        #expect(message.contains("app.bind { … }"))
    }

    @Test func aCallWhileTwoDevicesAreDrivenAtOnceStopsTheProcessSayingHowToBindIt() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let first = try await HarnessFixture(), second = try await HarnessFixture(bundleId: "com.example.mail")
            try await first.app.launch {}
            // Harness calls of both devices at once, as tests in parallel make them.
            ProcessBinding.shared.enter(first.device)
            ProcessBinding.shared.enter(second.device)
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.main.async {
                    _ = UIApplication.shared.beginBackgroundTask(withName: "save")
                    done.resume()
                }
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("BGEmuKit: UIApplication.shared.beginBackgroundTask(withName:expirationHandler:) was called outside the harness's tasks while devices"))
        #expect(message.contains("are driven at once"))
        #expect(message.contains("`@Suite(.serialized)`") && message.contains("app.bind { … }"))
    }

    @Test func anExplicitScopeBindsAppCodeWhateverTheProcessDrives() async {
        await #expect(processExitsWith: .success) {
            let first = try await HarnessFixture(), second = try await HarnessFixture(bundleId: "com.example.mail")
            try await first.app.launch {
                BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil) { _ in }
            }
            try await second.app.launch {}
            try first.app.bind {
                try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh))
            }
            #expect(first.service.calls.contains(.submit(TaskRequestBody(kind: "appRefresh", identifier: HarnessFixture.refresh))))
            #expect(!second.service.calls.contains { if case .submit = $0 { true } else { false } })
        }
    }
}

/// Begins its background task from a main-queue block of `applicationDidEnterBackground`, as apps that hop to the
/// main queue do, and ends it in its expiration handler.
final class MainQueueSavingDelegate: UIApplicationDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in `Recorder`s.
    let identifiers = Recorder<UIBackgroundTaskIdentifier>()
    let expired = Recorder<UIBackgroundTaskIdentifier>()

    func applicationDidEnterBackground(_ application: UIApplication) {
        DispatchQueue.main.async { [identifiers, expired] in
            let box = Recorder<UIBackgroundTaskIdentifier>()
            let id = UIApplication.shared.beginBackgroundTask(withName: "save") {
                guard let id = box.all.first else { return }
                expired.append(id)
                UIApplication.shared.endBackgroundTask(id)
            }
            box.append(id)
            identifiers.append(id)
        }
    }
}
