import Testing
@testable import Emulation

/// A client that runs the app's own code (BGEmuKit): launches say what they registered (R16), and the clock stops
/// where the app's code is called, so that the app's answers interleave with virtual time.
struct AppCodeClockTests {
    let app = EngineFixture.weather
    let refresh = EngineFixture.refreshId
    let cleanup = EngineFixture.cleanupId

    func refreshRequest(_ engine: DeviceEngine) -> TaskRequest {
        TaskRequest(kind: .appRefresh, identifier: refresh, submittedAt: engine.now)
    }

    @Test func R16_theLaunchThatStartsTheProcessSetsTheLaunchHandlersItRegistered() throws {
        var engine = EngineFixture.engine()
        #expect(engine.app().launchHandlers == [refresh, cleanup])
        try engine.launch(app, registering: [cleanup, cleanup])
        #expect(engine.app().launchHandlers == [cleanup])
        // The app registered no handler for the refresh: submitting it crashes the app, as on iOS.
        #expect(throws: EmulationError.self) { try engine.submit(app, refreshRequest(engine)) }
        #expect(engine.app().state == .notRunning)
        // A launch of a running app starts no process: it keeps the handlers of the launch that started it.
        try engine.launch(app, registering: [refresh])
        try engine.background(app)
        try engine.launch(app, registering: [cleanup])
        #expect(engine.app().launchHandlers == [refresh])
    }

    @Test func R16_registeringAnIdentifierThatIsNotPermittedIsRefused() throws {
        var engine = EngineFixture.engine()
        #expect(throws: EmulationError.invalid([FieldIssue(
            "launchHandlers[1]",
            "\"com.example.other\" is not in BGTaskSchedulerPermittedIdentifiers; registering it would crash the app")])) {
            try engine.launch(app, registering: [refresh, "com.example.other"])
        }
        #expect(engine.app().state == .notRunning)
        #expect(engine.events.isEmpty)
    }

    /// Launched, a refresh submitted, sent Home: the refresh runs at the first opportunity (about 15 min).
    func engineWithPendingRefresh(behavior: AppBehavior? = nil) throws -> DeviceEngine {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(behavior: behavior)])
        try engine.launch(app)
        try engine.submit(app, refreshRequest(engine))
        try engine.background(app)
        engine.clearEvents()
        return engine
    }

    @Test func theClockStopsWhereTheAppsCodeIsCalledSoItsAnswerComesInTime() throws {
        var engine = try engineWithPendingRefresh()
        let target = engine.now + .seconds(3600)
        // The first stop: didEnterBackground is over; the 5 s of background time end in suspension (no app code);
        // the refresh starts at an opportunity: a run.started for the app's launch handler.
        var stopped = try engine.advance(to: target, stoppingAtAppCode: true)
        #expect(stopped)
        let started = try #require(engine.events(.runStarted).last)
        #expect(started.at == engine.now && engine.now < target)
        #expect(engine.events.last?.type == .clockAdvanced)
        // The app's code answers at that instant, and the advance goes on to the target.
        let runId = try #require(started.data["runId"]?.stringValue)
        try engine.completeRun(app, runId: runId, result: .success)
        repeat { stopped = try engine.advance(to: target, stoppingAtAppCode: true) } while stopped
        #expect(engine.now == target)
        #expect(engine.events(.runExpiring).isEmpty && engine.events(.appTerminated).isEmpty)
        #expect(engine.app().state == .suspended)
    }

    @Test func withoutStoppingTheSameHourEndsInTheWatchdog() throws {
        var engine = try engineWithPendingRefresh()
        #expect(try engine.advance(to: engine.now + .seconds(3600)) == false)
        #expect(engine.events(.appTerminated).first?.data["reason"] == "watchdog")
    }

    @Test func aScriptedAppDoesNotStopTheClock() throws {
        let behavior = AppBehavior(runs: [.appRefresh: RunBehavior(completeAfter: .seconds(3), result: .success)])
        var engine = try engineWithPendingRefresh(behavior: behavior)
        #expect(try engine.advance(to: engine.now + .seconds(3600), stoppingAtAppCode: true) == false)
        #expect(engine.events(.runCompleted).count == 1)
    }

    @Test func stoppingGivesTheSameEventsAsOneAdvanceWhenTheAppAnswersNothing() throws {
        var once = try engineWithPendingRefresh()
        try once.advance(to: once.now + .seconds(7200))
        var stepped = try engineWithPendingRefresh()
        let target = stepped.now + .seconds(7200)
        var stops = 0
        while try stepped.advance(to: target, stoppingAtAppCode: true) { stops += 1 }
        #expect(stops == 2)  // the run starts (its launch handler), the run expires (its expiration handler)
        let withoutClock = { (events: [EmulationEvent]) in events.filter { $0.type != .clockAdvanced } }
        #expect(withoutClock(stepped.events) == withoutClock(once.events))
    }
}
