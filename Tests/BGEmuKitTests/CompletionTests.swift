import Dispatch
import Foundation
import Testing
@testable import BGEmuKit

/// `setTaskCompleted` ends the run, but the device suspends the app only once the app's current work has returned
/// (the handler, then what it left on the main queue and on its queue), as iOS does (R23): the next line still runs
/// in a running app.
@MainActor @Suite struct CompletionTests {
    /// Launches the fixture's app with `handler` for the refresh identifier, moves it to the background and plays
    /// one refresh run.
    func runRefresh(_ fixture: HarnessFixture, queue: DispatchQueue? = nil, _ handler: @escaping (BGTask) -> Void) async throws {
        try await fixture.app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: queue, launchHandler: handler)
        }
        try await fixture.app.moveToBackground()
        fixture.scriptRun("run_1", kind: "appRefresh", identifier: HarnessFixture.refresh)
        try await fixture.device.advanceClock(by: 60)
    }

    @Test func R23_aSubmitOnTheLineAfterSetTaskCompletedIsAcceptedAndStaysPending() async throws {
        let fixture = try await HarnessFixture()
        let thrown = Recorder<String>()
        try await runRefresh(fixture) { task in
            task.setTaskCompleted(success: true)
            do {
                try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh))
            } catch {
                thrown.append("\(error)")
            }
        }
        #expect(thrown.all.isEmpty)
        let sent = fixture.service.submitsAndCompletions
        #expect(sent == [.submit(TaskRequestBody(kind: "appRefresh", identifier: HarnessFixture.refresh)), .complete("run_1", .success(true))])
        let pending = fixture.service.calls.compactMap { if case .submit(let body) = $0 { body.identifier } else { nil } }
        #expect(pending == [HarnessFixture.refresh])
    }

    /// Waits (10 s at most) for the `Task` to be done and its completion sent, then expects its `submit` to have
    /// reached the service first, accepted.
    private func expectSubmitThenCompletion(
        _ fixture: HarnessFixture, done: Recorder<Bool>, thrown: Recorder<String>
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while done.all.isEmpty || !fixture.service.calls.contains(.complete("run_1", .success(true))) {
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(thrown.all.isEmpty)
        let sent = fixture.service.submitsAndCompletions
        #expect(sent == [.submit(TaskRequestBody(kind: "appRefresh", identifier: HarnessFixture.refresh)), .complete("run_1", .success(true))])
    }

    /// A completion from a `Task` after `async` work (outside any turn), then a `submit` that the service is slow to
    /// take: the completion waits for the submit's answer, so the app is still running when the service takes it.
    @Test func R23_aSlowSubmitAfterACompletionInATaskIsTakenBeforeTheCompletionSuspendsTheApp() async throws {
        let fixture = try await HarnessFixture()
        fixture.service.submitLatency = 0.05  // five times the completion's deferral
        let thrown = Recorder<String>()
        let done = Recorder<Bool>()
        let app = fixture.app
        try await runRefresh(fixture) { task in
            Task.detached {
                try? await Task.sleep(for: .milliseconds(20))  // the network answer
                app.bind {  // the suite's tests drive devices at once: this code says whose it is
                    task.setTaskCompleted(success: true)
                    do {
                        try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh))
                    } catch {
                        thrown.append("\(error)")
                    }
                }
                done.append(true)
            }
        }
        try await fixture.device.settle()
        try await expectSubmitThenCompletion(fixture, done: done, thrown: thrown)
    }

    /// A completion from a `Task` (code no turn waits for) while the harness runs another turn of the app (here a
    /// `run`; in a live run, the `clock.advanced` every step of co-simulated time dispatches): not kept for that
    /// turn's end, which comes before the `Task` reaches the service with its `submit` on the next line, but sent
    /// as one outside a turn is, once that submit has been answered.
    @Test func R23_aCompletionFromATaskWhileAnotherTurnRunsWaitsForTheTasksSubmit() async throws {
        let fixture = try await HarnessFixture()
        fixture.service.submitLatency = 0.05
        let (go, letGo) = AsyncStream.makeStream(of: Void.self)
        let completed = DispatchSemaphore(value: 0)
        let thrown = Recorder<String>()
        let done = Recorder<Bool>()
        let app = fixture.app
        try await runRefresh(fixture) { task in
            Task.detached {
                for await _ in go { break }  // the network answer, given while the turn below is open
                app.bind {
                    task.setTaskCompleted(success: true)
                    completed.signal()
                    do {
                        try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh))
                    } catch {
                        thrown.append("\(error)")
                    }
                }
                done.append(true)
            }
        }
        // Another turn of the app, open until the Task has called setTaskCompleted (and goes on to its submit).
        let completedInTurn = try await fixture.app.run { () -> Bool in
            letGo.yield()
            return completed.wait(timeout: .now() + 10) == .success
        }
        #expect(completedInTurn)
        try await expectSubmitThenCompletion(fixture, done: done, thrown: thrown)
    }

    @Test func R23_theAppIsSuspendedOnceTheHandlerHasReturnedNotInsideSetTaskCompleted() async throws {
        let fixture = try await HarnessFixture()
        let bundleId = fixture.app.bundleId
        let states = Recorder<String>()
        try await runRefresh(fixture) { [service = fixture.service] task in
            task.setTaskCompleted(success: true)
            states.append(service.appState(bundleId))
        }
        #expect(states.all == ["background"])
        #expect(fixture.service.appState(bundleId) == "suspended")
    }

    @Test func R23_aCompletionLeftOnTheMainQueueEndsTheRunBeforeTheHarnessReturns() async throws {
        let fixture = try await HarnessFixture()
        try await runRefresh(fixture) { task in
            let box = QueuedCall { task.setTaskCompleted(success: true) }
            DispatchQueue.main.async { box.body() }
        }
        #expect(fixture.service.calls.contains(.complete("run_1", .success(true))))
        #expect(fixture.service.appState(fixture.app.bundleId) == "suspended")
    }

    @Test func aLaunchHandlerRegisteredWithAQueueRunsOnItAndTheHarnessWaitsForIt() async throws {
        let fixture = try await HarnessFixture()
        let queue = DispatchQueue(label: "com.example.news.refresh")
        let label = DispatchSpecificKey<String>()
        queue.setSpecific(key: label, value: "refresh queue")
        let ranOn = Recorder<String>()
        try await runRefresh(fixture, queue: queue) { task in
            ranOn.append(DispatchQueue.getSpecific(key: label) ?? "elsewhere")
            task.setTaskCompleted(success: true)
        }
        #expect(ranOn.all == ["refresh queue"])
        #expect(fixture.service.calls.contains(.complete("run_1", .success(true))))
    }

    @Test func R13_aBackgroundTaskEndedInACallbackEndsOnTheDeviceOnceTheCallbackHasReturned() async throws {
        let fixture = try await HarnessFixture()
        let bundleId = fixture.app.bundleId
        let delegate = EndAtOnceDelegate(service: fixture.service, bundleId: bundleId)
        fixture.app.delegate = delegate
        try await fixture.app.launch {}
        try await fixture.app.moveToBackground()
        #expect(delegate.statesAfterEnd.all == ["background"])
        #expect(fixture.service.calls.contains(.endBackgroundTask("bgt_1")))
        #expect(fixture.service.appState(bundleId) == "suspended")
    }
}

/// Begins a background task on entering the background, ends it at once, and looks at the device right after.
final class EndAtOnceDelegate: UIApplicationDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in a `Recorder`.
    let service: FakeRemoteDevice
    let bundleId: String
    let statesAfterEnd = Recorder<String>()

    init(service: FakeRemoteDevice, bundleId: String) {
        self.service = service
        self.bundleId = bundleId
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let id = application.beginBackgroundTask(withName: "save")
        application.endBackgroundTask(id)
        statesAfterEnd.append(service.appState(bundleId))
    }
}
