import Testing
@testable import Emulation

/// R15–R24: BGTaskScheduler.
struct SchedulerRuleTests {
    let app = EngineFixture.weather
    let refresh = EngineFixture.refreshId
    let cleanup = EngineFixture.cleanupId

    func refreshRequest(_ engine: DeviceEngine, id: String = EngineFixture.refreshId, after: Double? = nil) -> TaskRequest {
        TaskRequest(kind: .appRefresh, identifier: id, earliestBeginDate: after.map { engine.now + .seconds($0) }, submittedAt: engine.now)
    }

    func refusal(_ body: () throws -> Void) -> String? {
        do { try body() } catch EmulationError.refused(let code, _) { return code } catch { return "other: \(error)" }
        return nil
    }

    @Test func R15_submitNeedsPermittedIdentifierAndTheMode() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(modes: [.processing])])
        try engine.launch(app)
        #expect(refusal { try engine.submit(app, refreshRequest(engine)) } == "notPermitted")
        #expect(refusal { try engine.submit(app, refreshRequest(engine, id: "com.example.unlisted")) } == "notPermitted")
        #expect(engine.events(.taskRequestRejected).count == 2)
        #expect(engine.events(.taskRequestRejected).first?.data["code"] == "notPermitted")
        #expect(engine.events(.taskRequestRejected).first?.data["detail"] == "An appRefresh request needs the background mode fetch.")
        try engine.submit(app, TaskRequest(kind: .processing, identifier: cleanup, submittedAt: engine.now))
        #expect(engine.app().runtime.taskRequests.count == 1)
    }

    @Test func R16_permittedIdentifierWithoutLaunchHandlerCrashesTheApp() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(launchHandlers: [EngineFixture.cleanupId])])
        try engine.launch(app)
        #expect(refusal { try engine.submit(app, refreshRequest(engine)) } == "noLaunchHandler")
        let crash = try #require(engine.events(.appCrashed).first)
        #expect(crash.data["exception"] == "NSInternalInconsistencyException")
        #expect(engine.app().state == .notRunning)
    }

    @Test func R17_oneRefreshAndTenProcessingRequestsAtMostAndTheSameIdentifierReplaces() throws {
        let ids = (0..<11).map { "p\($0)" }
        var engine = EngineFixture.engine(apps: [EngineFixture.app(identifiers: [refresh, "other.refresh"] + ids)])
        try engine.launch(app)
        try engine.submit(app, refreshRequest(engine))
        try engine.submit(app, refreshRequest(engine, after: 60))
        #expect(engine.app().runtime.taskRequests.count == 1)
        #expect(engine.events(.taskRequestSubmitted).last?.data["replaced"] == true)
        #expect(refusal { try engine.submit(app, refreshRequest(engine, id: "other.refresh")) } == "tooManyPendingTaskRequests")
        for id in ids.prefix(10) { try engine.submit(app, TaskRequest(kind: .processing, identifier: id, submittedAt: engine.now)) }
        #expect(refusal { try engine.submit(app, TaskRequest(kind: .processing, identifier: ids[10], submittedAt: engine.now)) }
                == "tooManyPendingTaskRequests")
    }

    @Test func R18_unavailableWhenBackgroundAppRefreshIsOffOrLowPowerMode() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        var conditions = engine.device.conditions
        conditions.lowPowerMode = true
        engine.setConditions(conditions)
        #expect(refusal { try engine.submit(app, refreshRequest(engine)) } == "unavailable")
        conditions.lowPowerMode = false
        conditions.backgroundAppRefresh = false
        engine.setConditions(conditions)
        #expect(refusal { try engine.submit(app, refreshRequest(engine)) } == "unavailable")
        conditions.backgroundAppRefresh = true
        engine.setConditions(conditions)
        try engine.setAppSettings(app, AppSettings(backgroundAppRefresh: false))
        #expect(refusal { try engine.submit(app, refreshRequest(engine)) } == "unavailable")
    }

    @Test func R19_neverBeforeEarliestBeginDate() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.submit(app, refreshRequest(engine, after: 3 * 3600))
        try engine.background(app)
        try engine.advance(seconds: 3 * 3600 - 1)
        #expect(engine.events(.runStarted).isEmpty)
        try engine.advance(seconds: 3600)
        let started = try #require(engine.events(.runStarted).first)
        #expect(engine.seconds(of: started) >= 3 * 3600)
    }

    @Test func R20_refreshGetsThirtySecondsProcessingRunsOnlyWhileIdleAndExpiresWhenUsed() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.submit(app, refreshRequest(engine))
        let run = try engine.simulateLaunch(app, identifier: refresh)
        #expect(run.deadline - run.startedAt == .seconds(30))
        try engine.completeRun(app, runId: run.id, result: .success)

        try engine.submit(app, TaskRequest(kind: .processing, identifier: cleanup, requiresExternalPower: true, submittedAt: engine.now))
        try engine.background(app)
        try engine.advance(seconds: 4 * 3600)
        #expect(engine.events(.runStarted).count == 1)  // the user is active, the device unlocked and unplugged
        let eligibility = try engine.eligibility(app, identifier: cleanup)
        #expect(eligibility.conditions.filter { !$0.met }.map(\.name) == ["externalPower", "deviceIdle"])
        var idle = engine.device.conditions
        idle.locked = true
        idle.userActive = false
        idle.charging = true
        engine.setConditions(idle)
        while engine.app().runtime.openRuns.isEmpty { try engine.advance(seconds: 60) }
        let processing = try #require(engine.app().runtime.openRuns.first)
        #expect(processing.kind == .processing)
        #expect(processing.deadline - processing.startedAt == .seconds(300))
        idle.userActive = true
        engine.setConditions(idle)
        #expect(engine.events(.runExpiring).last?.data["reason"] == "deviceInUse")
    }

    @Test func R21_aRequestRunsOnce() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.submit(app, refreshRequest(engine))
        try engine.background(app)
        try engine.advance(seconds: 2 * 3600)
        #expect(engine.events(.runStarted).count == 1)
        #expect(engine.app().runtime.taskRequests.isEmpty)

        let script = AppBehavior(runs: [.appRefresh: RunBehavior(completeAfter: .seconds(2), result: .success, resubmit: true)])
        var again = EngineFixture.engine(apps: [EngineFixture.app(behavior: script)])
        try again.launch(app)
        try again.submit(app, refreshRequest(again))
        try again.background(app)
        try again.advance(seconds: 3 * 3600)
        #expect(again.events(.runStarted).count > 1)
    }

    @Test func R21_aScriptedResubmissionKeepsTheRequestsConditions() throws {
        // A processing task that needs power and a network resubmits as it was submitted at launch: the next
        // request needs them too (it used to lose both after the first run, and ran 92 times in 3 days on a
        // device charging one hour a night).
        let script = AppBehavior(runs: [.processing: RunBehavior(completeAfter: .seconds(2), result: .success, resubmit: true)])
        var engine = EngineFixture.engine(apps: [EngineFixture.app(behavior: script)])
        try engine.launch(app)
        try engine.submit(app, TaskRequest(
            kind: .processing, identifier: EngineFixture.cleanupId, requiresNetworkConnectivity: true,
            requiresExternalPower: true, submittedAt: engine.now))
        try engine.background(app)
        try engine.simulateLaunch(app, identifier: EngineFixture.cleanupId)
        try engine.advance(seconds: 10)
        let next = try #require(engine.app().runtime.taskRequests.first { $0.identifier == EngineFixture.cleanupId })
        #expect(next.requiresExternalPower && next.requiresNetworkConnectivity)
        #expect(engine.events(.runCompleted).count == 1)
    }

    @Test func R22_expirationCallsTheHandlerThenFailsAndTerminates() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.submit(app, refreshRequest(engine))
        try engine.background(app)
        try engine.advance(seconds: 10)
        engine.clearEvents()
        let run = try engine.simulateLaunch(app, identifier: refresh)
        try engine.advance(seconds: 30)
        #expect(engine.events(.runExpiring).count == 1)
        #expect(engine.app().state == .background)
        try engine.advance(seconds: 5)
        let expired = try #require(engine.events(.runExpired).first)
        #expect(expired.data["runId"] == .string(run.id) && expired.data["result"] == "failure")
        #expect(engine.events(.appTerminated).first?.data["reason"] == "watchdog")
        #expect(engine.app().runtime.runs.last?.result == .failure)
    }

    @Test func R22_completingDuringTheGracePeriodAvoidsTermination() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.submit(app, refreshRequest(engine))
        try engine.background(app)
        try engine.advance(seconds: 10)
        let run = try engine.simulateLaunch(app, identifier: refresh)
        try engine.advance(seconds: 32)
        try engine.completeRun(app, runId: run.id, result: .failure)
        try engine.advance(seconds: 10)
        #expect(engine.events(.appTerminated).isEmpty)
        #expect(engine.events(.runCompleted).first?.data["afterExpiration"] == true)
    }

    @Test func R23_setTaskCompletedEndsTheRunAndSuspends() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.submit(app, refreshRequest(engine))
        try engine.background(app)
        try engine.advance(seconds: 10)
        let run = try engine.simulateLaunch(app, identifier: refresh)
        try engine.advance(seconds: 3)
        try engine.completeRun(app, runId: run.id, result: .success)
        #expect(engine.app().state == .suspended)
        #expect(engine.app().runtime.runs.last?.state == .completed)
        #expect(throws: EmulationError.self) { try engine.completeRun(app, runId: run.id, result: .success) }
    }

    @Test func R23_aRunIsCompletedWithTheResultsOfItsKindAndTheErrorSaysWhichInGoodEnglish() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.submit(app, refreshRequest(engine))
        try engine.background(app)
        try engine.advance(seconds: 10)
        let run = try engine.simulateLaunch(app, identifier: refresh)
        #expect(throws: EmulationError.unprocessable(field: "result", detail: "an appRefresh run ends with success, failure")) {
            try engine.completeRun(app, runId: run.id, result: .newData)
        }
    }

    @Test func theIndefiniteArticleFollowsTheSoundOfEveryKindName() {
        let runs = RunKind.allCases.map { $0.rawValue.withIndefiniteArticle() }
        #expect(runs == [
            "an appRefresh", "a processing", "a fetch", "a remoteNotification", "a urlSessionEvents", "a location",
            "an accessory", "a voip", "a newsstand", "a continuedProcessing",
        ])
        #expect(TaskRequestKind.allCases.map { $0.rawValue.withIndefiniteArticle() }
                == ["an appRefresh", "a processing", "a continuedProcessing"])
        #expect("appRefresh".withIndefiniteArticle(capitalized: true) == "An appRefresh")
        #expect("upload".withIndefiniteArticle() == "an upload" && "user".withIndefiniteArticle() == "a user")
    }

    @Test func R24_simulateLaunchIgnoresConditionsAndSimulateExpirationExpiresNow() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.submit(app, refreshRequest(engine, after: 86_400))
        try engine.forceQuit(app)
        var conditions = engine.device.conditions
        conditions.batteryLevel = 5
        engine.setConditions(conditions)
        let run = try engine.simulateLaunch(app, identifier: refresh)
        #expect(run.reason == "simulateLaunch")
        try engine.simulateExpiration(app, identifier: refresh)
        #expect(engine.events(.runExpiring).first?.data["reason"] == "simulateExpiration")
        #expect(engine.events(.runExpiring).first?.at == run.startedAt)
        #expect(throws: EmulationError.self) { try engine.simulateLaunch(app, identifier: "nope") }
    }

    @Test func cancelAndCancelAll() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.submit(app, refreshRequest(engine))
        try engine.submit(app, TaskRequest(kind: .processing, identifier: cleanup, submittedAt: engine.now))
        try engine.cancelTaskRequest(app, identifier: refresh)
        #expect(engine.app().runtime.taskRequests.map(\.identifier) == [cleanup])
        try engine.cancelAllTaskRequests(app)
        #expect(engine.app().runtime.taskRequests.isEmpty)
        #expect(engine.events(.taskRequestCancelled).count == 2)
    }

    @Test func bgTaskSchedulerIsUnavailableBeforeIOS13() throws {
        var engine = EngineFixture.engine(os: "12.4")
        try engine.launch(app)
        #expect(refusal { try engine.submit(app, refreshRequest(engine)) } == "unavailable")
    }
}

/// When a request itself first runs (issue 29): the next opportunity is the device's, not the request's.
@Suite struct FirstRunTests {
    let app = EngineFixture.weather

    @Test func R19_R26_firstRunAtWeighsTheEarliestBeginDateAndIsWhenTheRunStarts() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.submit(app, TaskRequest(
            kind: .appRefresh, identifier: EngineFixture.refreshId, earliestBeginDate: engine.now + .seconds(1800),
            submittedAt: engine.now))
        try engine.background(app)
        let eligibility = try engine.eligibility(app, identifier: EngineFixture.refreshId)
        let next = try #require(eligibility.nextOpportunityAt)
        let first = try #require(eligibility.firstRunAt)
        #expect(next < engine.now + .seconds(1800))  // the device's next opportunity comes first
        #expect(first >= engine.now + .seconds(1800))  // the request's does not
        #expect(eligibility.blockedBy.isEmpty)
        // Advancing to it starts the run there, and not before.
        try engine.advance(to: first - .seconds(1))
        #expect(engine.events(.runStarted).isEmpty)
        try engine.advance(to: first)
        #expect(engine.events(.runStarted).map(\.at) == [first])
    }

    @Test func R18_aRequestInLowPowerModeIsBlockedByWhatTimeCannotChange() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.submit(app, TaskRequest(kind: .appRefresh, identifier: EngineFixture.refreshId, submittedAt: engine.now))
        try engine.background(app)
        var conditions = engine.device.conditions
        conditions.lowPowerMode = true
        engine.setConditions(conditions)
        let eligibility = try engine.eligibility(app, identifier: EngineFixture.refreshId)
        #expect(eligibility.firstRunAt == nil)
        #expect(eligibility.blockedBy == ["lowPowerModeOff"])
    }
}
