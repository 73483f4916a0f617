import Testing
@testable import Emulation

/// R1–R7: the app lifecycle.
struct LifecycleRuleTests {
    @Test func R1_userLaunchFinishesLaunchingThenBecomesActive() throws {
        var engine = EngineFixture.engine()
        try engine.launch(EngineFixture.weather)
        #expect(engine.trace() == ["state:inactive", "delegate:didFinishLaunching", "state:active", "delegate:didBecomeActive"])
        #expect(engine.app().state == .active)
    }

    @Test func R1_leavingTheForegroundResignsThenEntersBackground() throws {
        var engine = EngineFixture.engine()
        try engine.launch(EngineFixture.weather)
        engine.clearEvents()
        try engine.background(EngineFixture.weather)
        #expect(engine.trace() == ["delegate:willResignActive", "state:inactive", "state:background", "delegate:didEnterBackground"])
    }

    @Test func R2_backgroundAppIsSuspendedFiveSecondsAfterDidEnterBackground() throws {
        var engine = EngineFixture.engine()
        try engine.launch(EngineFixture.weather)
        try engine.background(EngineFixture.weather)
        try engine.advance(seconds: 4.999)
        #expect(engine.app().state == .background)
        try engine.advance(seconds: 0.001)
        #expect(engine.app().state == .suspended)
        let suspended = try #require(engine.events(.appStateChanged).last)
        #expect(suspended.data["to"] == "suspended" && engine.seconds(of: suspended) == 5)
    }

    @Test func R2_aBackgroundTaskHoldsTheAppRunning() throws {
        var engine = EngineFixture.engine()
        try engine.launch(EngineFixture.weather)
        try engine.beginBackgroundTask(EngineFixture.weather, name: "upload")
        try engine.background(EngineFixture.weather)
        try engine.advance(seconds: 20)
        #expect(engine.app().state == .background)
    }

    @Test func R3_systemLaunchStartsInBackgroundWithoutBecomingActive() throws {
        var engine = EngineFixture.engine()
        try engine.launch(EngineFixture.weather)
        try engine.submit(EngineFixture.weather, TaskRequest(kind: .appRefresh, identifier: EngineFixture.refreshId, submittedAt: engine.now))
        try engine.forceQuitThenRelaunchByUser()
        try engine.terminate(EngineFixture.weather)
        engine.clearEvents()
        try engine.simulateLaunch(EngineFixture.weather, identifier: EngineFixture.refreshId)
        #expect(engine.trace().prefix(2) == ["state:background", "delegate:didFinishLaunching"])
        #expect(!engine.trace().contains("delegate:didBecomeActive"))
        #expect(engine.app().state == .background)
    }

    @Test func R3_suspendedAppIsResumedIntoBackground() throws {
        var engine = EngineFixture.engine()
        try engine.launch(EngineFixture.weather)
        try engine.submit(EngineFixture.weather, TaskRequest(kind: .appRefresh, identifier: EngineFixture.refreshId, submittedAt: engine.now))
        try engine.background(EngineFixture.weather)
        try engine.advance(seconds: 10)
        #expect(engine.app().state == .suspended)
        engine.clearEvents()
        try engine.simulateLaunch(EngineFixture.weather, identifier: EngineFixture.refreshId)
        #expect(engine.trace().first == "state:background")
        #expect(!engine.trace().contains("delegate:didFinishLaunching"))
    }

    @Test func R4_exitsOnSuspendTerminatesInsteadOfBackgrounding() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(exitsOnSuspend: true)])
        try engine.launch(EngineFixture.weather)
        engine.clearEvents()
        try engine.background(EngineFixture.weather)
        #expect(engine.trace() == ["delegate:willResignActive", "state:inactive", "delegate:willTerminate", "state:notRunning",
                                   "app.terminated"])
        #expect(!engine.trace().contains("state:background") && engine.app().state == .notRunning)
    }

    @Test func R5_forceQuitAppIsNotLaunchedForBackgroundWorkUntilTheUserLaunchesIt() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(behavior: nil)])
        try engine.launch(EngineFixture.weather)
        try engine.submit(EngineFixture.weather, TaskRequest(kind: .appRefresh, identifier: EngineFixture.refreshId, submittedAt: engine.now))
        try engine.forceQuit(EngineFixture.weather)
        #expect(engine.app().state == .notRunning && engine.app().runtime.forceQuit)
        try engine.advance(seconds: 6 * 3600)
        #expect(engine.events(.runStarted).isEmpty)
        let eligibility = try engine.eligibility(EngineFixture.weather, identifier: EngineFixture.refreshId)
        #expect(eligibility.conditions.first { $0.name == "notForceQuit" }?.met == false)
        try engine.launch(EngineFixture.weather)
        try engine.background(EngineFixture.weather)
        try engine.advance(seconds: 3600)
        #expect(engine.events(.runStarted).count == 1)
    }

    @Test func R6_systemTerminationTellsOnlyARunningApp() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(), EngineFixture.app("com.example.other")])
        try engine.launch(EngineFixture.weather)
        try engine.beginBackgroundTask(EngineFixture.weather, name: nil)
        try engine.background(EngineFixture.weather)
        try engine.launch("com.example.other")
        try engine.background("com.example.other")
        try engine.advance(seconds: 6)
        #expect(engine.app().state == .background && engine.app("com.example.other").state == .suspended)
        engine.clearEvents()
        try engine.terminate(EngineFixture.weather)
        try engine.terminate("com.example.other")
        #expect(engine.trace().contains("delegate:willTerminate"))
        #expect(!engine.trace("com.example.other").contains("delegate:willTerminate"))
        #expect(engine.app("com.example.other").state == .notRunning)
        #expect(throws: EmulationError.self) { try engine.terminate("com.example.other") }
    }

    @Test func R6_terminationSaysWhetherTheAppWasRunningAndInWhichState() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(), EngineFixture.app("com.example.other")])
        try engine.launch(EngineFixture.weather)
        try engine.beginBackgroundTask(EngineFixture.weather, name: nil)
        try engine.background(EngineFixture.weather)
        try engine.launch("com.example.other")
        try engine.background("com.example.other")
        try engine.advance(seconds: 6)
        try engine.terminate(EngineFixture.weather)
        try engine.terminate("com.example.other")
        try engine.forceQuit("com.example.other")  // already ended
        let ends = engine.events(.appTerminated)
        #expect(ends.map { $0.data["wasRunning"] } == [true, false, false])
        #expect(ends.map { $0.data["previousState"] } == ["background", "suspended", "notRunning"])
    }

    @Test func R6_theForegroundAppIsNotTerminatedForMemory() throws {
        var engine = EngineFixture.engine()
        try engine.launch(EngineFixture.weather)
        #expect(throws: EmulationError.conflict(code: "inForeground", detail: "The system does not reclaim the memory of the foreground app.")) {
            try engine.terminate(EngineFixture.weather)
        }
    }

    @Test func R7_rebootEndsEveryApp() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(), EngineFixture.app("com.example.other")])
        try engine.launch(EngineFixture.weather)
        try engine.launch("com.example.other")
        engine.reboot()
        #expect(engine.device.apps.allSatisfy { $0.state == .notRunning })
        #expect(engine.events(.appTerminated).count == 2)
        #expect(engine.events.last?.type == .deviceRebooted)
    }

    @Test func launchingAnotherAppSendsTheCurrentOneToTheBackground() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(), EngineFixture.app("com.example.other")])
        try engine.launch(EngineFixture.weather)
        try engine.launch("com.example.other")
        #expect(engine.app().state == .background)
        #expect(engine.app("com.example.other").state == .active)
    }
}

extension DeviceEngine {
    /// Force quit, then the user opens the app again and leaves it: a plain background app again.
    mutating func forceQuitThenRelaunchByUser() throws {
        try forceQuit(EngineFixture.weather)
        try launch(EngineFixture.weather)
        try background(EngineFixture.weather)
        try advance(seconds: 6)
    }
}
