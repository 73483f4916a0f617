import Dispatch
import Foundation
import Testing
@testable import BGEmuKit

/// Co-simulated time: while the app's code is at work the device's clock follows real time; it jumps only while
/// every app is idle, and again once app code has outlasted the real-time budget.
@MainActor @Suite struct CoSimulationTests {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)  // the fake's 2026-01-01T00:00:00Z

    /// A launched app in the background whose refresh handler is `handler`; the next advance starts `run_1` 10 s
    /// after the start, and its expiration (30 s later) and the watchdog's kill (5 s after that) are scripted.
    func backgroundApp(budget: Duration, _ handler: @escaping (BGTask) -> Void) async throws -> HarnessFixture {
        let fixture = try await HarnessFixture(realTimeBudget: budget)
        try await fixture.app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: HarnessFixture.refresh, using: nil, launchHandler: handler)
        }
        try await fixture.app.moveToBackground()
        let bundleId = fixture.app.bundleId
        fixture.scriptRun("run_1", kind: "appRefresh", identifier: HarnessFixture.refresh)
        fixture.service.timed = [
            (Self.start.addingTimeInterval(40), [("run.expiring", bundleId, ["runId": .string("run_1"), "reason": .string("deadline")])]),
            (Self.start.addingTimeInterval(45), [
                ("run.expired", bundleId, ["runId": .string("run_1")]),
                ("app.stateChanged", bundleId, ["from": .string("background"), "to": .string("notRunning"), "cause": .string("watchdog")]),
                ("app.terminated", bundleId, ["reason": .string("watchdog"), "terminationCode": .string("0x8badf00d")]),
            ]),
        ]
        return fixture
    }

    @Test func anAsyncCompletionAfterARealDelayCompletesTheRunWithoutExpiring() async throws {
        let expirations = Recorder<String>()
        let thrown = Recorder<String>()
        let services = Recorder<FakeRemoteDevice>()
        let fixture = try await backgroundApp(budget: .seconds(5)) { task in
            task.expirationHandler = { expirations.append(task.identifier) }
            let service = services.all[0], began = service.virtualNow
            Task {
                // A network answer: 0.3 s, and (on a machine loaded enough to hold the harness's steps back that
                // long) until the device's clock has followed some of it.
                try await Task.sleep(for: .milliseconds(300))
                await waitUntil { service.virtualNow > began }
                task.setTaskCompleted(success: true)
                do { try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh)) } catch {
                    thrown.append("\(error)")
                }
            }
        }
        services.append(fixture.service)
        try await fixture.device.advanceClock(by: 120)
        #expect(expirations.all.isEmpty)
        #expect(thrown.all.isEmpty)
        #expect(fixture.app.terminations.isEmpty)
        #expect(fixture.service.calls.contains(.complete("run_1", .success(true))))
        #expect(fixture.service.calls.contains(.submit(TaskRequestBody(kind: "appRefresh", identifier: HarnessFixture.refresh))))
        // The run completed about 0.3 s of virtual time after it started, not at its expiration.
        let events = try await fixture.device.recordedEvents()
        let started = try #require(events.first { $0.type == .runStarted }).at
        let completed = try #require(events.first { $0.type == .runCompleted }).at
        #expect(completed.timeIntervalSince(started) > 0)  // the clock followed the wait (it lags real time by a step or more)
        #expect(completed.timeIntervalSince(started) < 30)  // within the run's allowance, however loaded the machine
        #expect(fixture.service.virtualNow == Self.start.addingTimeInterval(120))
        #expect(fixture.service.appState(fixture.app.bundleId) == "suspended")
    }

    @Test func R23_aCompletionBetweenTwoStepsIsStampedWhenItIsCalledNotAtTheLastStep() async throws {
        // Steps of 3 s, as a loaded machine can hold the harness's 20 ms back: the app completes 0.3 s into the
        // first, while the harness sleeps, and catches the clock up before its call reaches the service.
        let fixture = try await backgroundApp(budget: .seconds(10)) { task in
            Task {
                try await Task.sleep(for: .milliseconds(300))
                task.setTaskCompleted(success: true)
            }
        }
        fixture.device.realTimeStep = .seconds(3)
        try await fixture.device.advanceClock(by: 120)
        #expect(fixture.service.calls.contains(.complete("run_1", .success(true))))
        let events = try await fixture.device.recordedEvents()
        let started = try #require(events.first { $0.type == .runStarted }).at
        let completed = try #require(events.first { $0.type == .runCompleted }).at
        // Stamped after the run began (at the last step, the run's first instant, without the catch-up) and before
        // the step ended.
        #expect(completed.timeIntervalSince(started) > 0)
        #expect(completed.timeIntervalSince(started) < 3)
        #expect(fixture.service.virtualNow == Self.start.addingTimeInterval(120))
        #expect(fixture.service.appState(fixture.app.bundleId) == "suspended")
    }

    @Test func aNeverCompletingHandlerStillExpiresOnceTheBudgetIsSpent() async throws {
        let expirations = Recorder<Date>()
        // A budget of a second: the steps counted below are 20 ms of sleep each, so even steps stretched tenfold
        // by a loaded machine make more than four in the two budgets waited.
        let fixture = try await backgroundApp(budget: .seconds(1)) { task in
            task.expirationHandler = { expirations.append(EmulatedDevice.currentDate ?? .distantPast) }
        }
        let clock = ContinuousClock()
        let elapsed = try await clock.measure { try await fixture.device.advanceClock(by: 120) }
        // Expired at its virtual instant, then killed by the watchdog; the harness waited a budget for the
        // handler and one for its expiration handler, no more.
        #expect(expirations.all == [Self.start.addingTimeInterval(40)])
        let kill = try #require(fixture.app.terminations.first)
        #expect(kill.reason == "watchdog" && kill.terminationCode == "0x8badf00d")
        #expect(kill.at == Self.start.addingTimeInterval(45))
        #expect(elapsed >= .seconds(1))  // it waited a budget (no upper bound: CI's load stretches real time)
        #expect(fixture.service.virtualNow == Self.start.addingTimeInterval(120))
        // While it waited, the clock followed real time in small steps.
        #expect(fixture.service.calls.filter { $0 == .advance(stop: true) }.count > 4)
    }

    @Test func determinism_aSynchronousCompletionGivesTheSameCallsAndEventsAsWithoutCoSimulation() async throws {
        func play(budget: Duration) async throws -> ([FakeRemoteDevice.Call], [String]) {
            let fixture = try await backgroundApp(budget: budget) { task in
                try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: HarnessFixture.refresh))
                task.setTaskCompleted(success: true)
            }
            try await fixture.device.advanceClock(by: 3600)
            let events = try await fixture.device.recordedEvents().map { "\($0.id) \($0.type) \($0.bundleId ?? "-") \($0.at) \($0.data.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })" }
            return (fixture.service.calls, events)
        }
        let withBudget = try await play(budget: .seconds(2))
        let without = try await play(budget: .zero)
        #expect(withBudget.0 == without.0)
        #expect(withBudget.1 == without.1)
        // The calls as before co-simulated time: one stop for the run, one advance to the target. Following real
        // time, even for one step, would have added advances of its own (no wall-clock figure is asserted: under a
        // loaded CI the same run took 24 s of real time without waiting for any).
        #expect(withBudget.0 == [
            .launch([HarnessFixture.refresh]), .lifecycle("background"), .advance(stop: true),
            .submit(TaskRequestBody(kind: "appRefresh", identifier: HarnessFixture.refresh)), .complete("run_1", .success(true)),
            .advance(stop: true),
        ])
    }

    @Test func settleWaitsForABackgroundTaskEndedAsynchronously() async throws {
        let fixture = try await HarnessFixture(realTimeBudget: .seconds(2))
        let service = fixture.service
        let start = Self.start
        let delegate = UploadingDelegate(until: { service.virtualNow > start })
        fixture.app.delegate = delegate
        try await fixture.app.launch {}
        try await fixture.app.moveToBackground()
        #expect(fixture.service.appState(fixture.app.bundleId) == "background")
        delegate.startUpload()  // only now: under load, 0.3 s can pass before moveToBackground returns
        try await fixture.device.settle(timeout: .seconds(10))
        #expect(fixture.service.calls.contains(.endBackgroundTask("bgt_1")))
        #expect(fixture.service.appState(fixture.app.bundleId) == "suspended")
        // The clock followed the upload's real 0.3 s (and, however loaded the machine, the task ended before its
        // 30 s allowance: it was not told to expire).
        let moved = fixture.service.virtualNow.timeIntervalSince(Self.start)
        #expect(moved > 0 && moved < 30)  // followed, by up to a step less than real time
    }

    @Test func settleThrowsStillBusyNamingWhatStaysOpenWhenItTimesOut() async throws {
        let fixture = try await HarnessFixture(realTimeBudget: .seconds(2))
        fixture.app.delegate = UploadingDelegate(never: true)
        try await fixture.app.launch {}
        try await fixture.app.moveToBackground()
        await #expect(throws: BGEmuError.stillBusy("com.example.news: background task bgt_1")) {
            try await fixture.device.settle(timeout: .milliseconds(200))
        }
    }

    @Test func settleReturnsAtOnceWhenEveryAppIsIdle() async throws {
        let fixture = try await HarnessFixture(realTimeBudget: .seconds(2))
        try await fixture.app.launch {}
        try await fixture.device.settle(timeout: .zero)
        #expect(!fixture.service.calls.contains(.advance(stop: true)))
    }

    @Test func aFetchRunOfADelegateThatDoesNotImplementFetchDoesNotHoldTheClock() async throws {
        let fixture = try await HarnessFixture(realTimeBudget: .seconds(2))
        fixture.app.delegate = SilentDelegate()
        try await fixture.app.launch {}
        try await fixture.app.moveToBackground()
        fixture.scriptRun("run_7", kind: "fetch", identifier: nil)
        try await fixture.device.advanceClock(by: 900)
        // Two advances, as without co-simulation: following real time would have added steps of its own.
        #expect(fixture.service.calls.filter { $0 == .advance(stop: true) }.count == 2)
        #expect(fixture.app.busy.openItems.isEmpty)
    }

    @Test func theDeviceClockFollowsAdvanceClock() async throws {
        let fixture = try await HarnessFixture()
        try await fixture.app.launch {}
        let before = try await fixture.app.run { DeviceClock().now }
        try await fixture.device.advanceClock(by: 24 * 3600)
        let after = try await fixture.app.run { DeviceClock().now }
        #expect(before == Self.start)
        #expect(after.timeIntervalSince(before) == 24 * 3600)
    }

    @Test func theDeviceClockIsTheWallClockWhenNoAppIsBound() async {
        await #expect(processExitsWith: .success) {
            let wall = Date()
            #expect(abs(DeviceClock().now.timeIntervalSince(wall)) < 60)
        }
    }
}

/// Begins a background task on entering the background and ends it from another thread 0.3 s after the test starts
/// the upload, as an upload's completion would (or never).
final class UploadingDelegate: UIApplicationDelegate, @unchecked Sendable {
    // @unchecked Sendable: immutable (a semaphore is thread-safe).
    let never: Bool
    /// What the upload also waits for after its 0.3 s (a loaded machine can hold the harness's steps back longer).
    let until: @Sendable () -> Bool
    private let started = DispatchSemaphore(value: 0)

    init(never: Bool = false, until: @escaping @Sendable () -> Bool = { true }) {
        self.never = never
        self.until = until
    }

    /// Lets the upload begun on entering the background run its 0.3 s.
    func startUpload() { started.signal() }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let id = application.beginBackgroundTask(withName: "upload")
        guard !never else { return }
        let started = self.started, until = self.until
        DispatchQueue.global().async {
            started.wait()
            Thread.sleep(forTimeInterval: 0.3)
            var waits = 0
            while !until() && waits < 400 {
                Thread.sleep(forTimeInterval: 0.01)
                waits += 1
            }
            UIApplication.shared.endBackgroundTask(id)
        }
    }
}

/// A delegate that implements none of the callbacks (their default implementations run).
final class SilentDelegate: UIApplicationDelegate, Sendable {}

/// Waits, in steps of 10 ms and for at most 4 s of real time, until `condition` holds.
func waitUntil(_ condition: @Sendable () -> Bool) async {
    var waits = 0
    while !condition() && waits < 400 {
        try? await Task.sleep(for: .milliseconds(10))
        waits += 1
    }
}
