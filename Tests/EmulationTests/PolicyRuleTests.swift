import Testing
@testable import Emulation

/// R25–R28: when the system grants discretionary time.
struct PolicyRuleTests {
    let app = EngineFixture.weather
    let refresh = EngineFixture.refreshId
    static let hour = 3600.0

    /// A device whose weather app has a pending refresh request and sits suspended in the background.
    func pendingRefresh(conditions: DeviceConditions = DeviceConditions(), policy: [String: Double] = [:]) throws -> DeviceEngine {
        var engine = EngineFixture.engine(conditions: conditions, policy: policy)
        try engine.launch(app)
        try engine.submit(app, TaskRequest(kind: .appRefresh, identifier: refresh, submittedAt: engine.now))
        try engine.background(app)
        return engine
    }

    @Test func R25_criticallyLowBatteryHoldsLaunchesUnlessCharging() throws {
        var engine = try pendingRefresh(conditions: DeviceConditions(batteryLevel: 20))
        try engine.advance(seconds: 4 * Self.hour)
        #expect(engine.events(.runStarted).isEmpty)
        let condition = try engine.eligibility(app, identifier: refresh).conditions.first { $0.name == "batteryNotCritical" }
        #expect(condition?.met == false && condition?.rule == "R25")
        var charging = engine.device.conditions
        charging.charging = true
        engine.setConditions(charging)
        try engine.advance(seconds: Self.hour)
        #expect(engine.events(.runStarted).count == 1)
    }

    @Test func R25_conditionsAreListedInTheOrderTheSystemWeighsThem() throws {
        let engine = try pendingRefresh()
        let names = try engine.eligibility(app, identifier: refresh).conditions.map(\.name)
        let order = ["batteryNotCritical", "lowPowerModeOff", "backgroundAppRefreshDevice", "usagePrediction", "notForceQuit",
                     "budget", "rateLimit"]
        #expect(order.compactMap { names.firstIndex(of: $0) } == order.compactMap { names.firstIndex(of: $0) }.sorted())
        #expect(try engine.eligibility(app, identifier: refresh).eligible)
    }

    @Test func R25_lowPowerModeHoldsLaunches() throws {
        var engine = try pendingRefresh()
        var lpm = engine.device.conditions
        lpm.lowPowerMode = true
        engine.setConditions(lpm)
        try engine.advance(seconds: 4 * Self.hour)
        #expect(engine.events(.runStarted).isEmpty)
    }

    @Test func R26_launchesComeAtOpportunitiesOfTheProfileCadence() throws {
        var engine = try pendingRefresh()
        try engine.advance(seconds: 2 * Self.hour)
        let started = try #require(engine.events(.runStarted).first)
        #expect(started.data["reason"] == "opportunity")
        let at = engine.seconds(of: started)
        #expect(at >= 900 && at <= 960)  // the first opportunity: 15 min plus up to 60 s of seeded jitter
    }

    @Test func R26_anAppUsedAtEightIsRefreshedShortlyBeforeEight() throws {
        var engine = EngineFixture.engine()
        let day = 86_400.0
        // Day 0 starts at midnight: the user opens the app at 8:00 on four days.
        for d in 0..<4 {
            try engine.advance(to: VirtualInstant.defaultStart + .seconds(Double(d) * day + 8 * Self.hour))
            try engine.launch(app)
            try engine.background(app)
        }
        try engine.launch(app)
        try engine.submit(app, TaskRequest(kind: .appRefresh, identifier: refresh, submittedAt: engine.now))
        try engine.background(app)
        let predicted = try #require(try engine.eligibility(app, identifier: refresh).predictedLaunchAt)
        #expect(RFC3339.format(predicted) == "2026-01-05T07:50:00.000Z")
        try engine.advance(to: VirtualInstant.defaultStart + .seconds(5 * day))
        let started = try #require(engine.events(.runStarted).last)
        #expect(started.data["reason"] == "predictedUsage")
        #expect(RFC3339.format(started.at) == "2026-01-05T07:50:00.000Z")
    }

    @Test func R27_appsThatRunToExpirationGetFewerLaunchesThanAppsThatFinishFast() throws {
        func launchesOnSecondDay(_ behavior: RunBehavior) throws -> Int {
            let script = AppBehavior(runs: [.fetch: behavior])
            var engine = EngineFixture.engine(apps: [EngineFixture.app(behavior: script)], policy: ["dailyLaunchBudget": 8])
            try engine.launch(app)
            try engine.setFetchInterval(app, .minimum)
            try engine.background(app)
            try engine.advance(seconds: 86_400)
            engine.clearEvents()
            try engine.advance(seconds: 86_400)
            return engine.events(.runStarted).count
        }
        let fast = try launchesOnSecondDay(RunBehavior(completeAfter: .seconds(2), result: .newData))
        let slow = try launchesOnSecondDay(RunBehavior(completeAfter: nil, result: .newData))
        #expect(fast > slow)
        #expect(slow >= 1)
    }

    @Test func R27_budgetCapsDiscretionaryLaunchesPerDay() throws {
        let script = AppBehavior(runs: [.fetch: RunBehavior(completeAfter: .seconds(20), result: .noData)])
        var engine = EngineFixture.engine(apps: [EngineFixture.app(behavior: script)], policy: ["dailyLaunchBudget": 3])
        try engine.launch(app)  // one user launch: +1 usage bonus
        try engine.setFetchInterval(app, .minimum)
        try engine.background(app)
        try engine.advance(seconds: 23 * Self.hour)
        #expect(engine.events(.runStarted).count == 4)
    }

    @Test func R28_fetchNeedsTheModeAndAnInterval() throws {
        var never = EngineFixture.engine()
        try never.launch(app)
        try never.background(app)
        try never.advance(seconds: 6 * Self.hour)
        #expect(never.events(.runStarted).isEmpty)  // the default interval is never

        var noMode = EngineFixture.engine(apps: [EngineFixture.app(modes: [.processing])])
        try noMode.launch(app)
        try noMode.setFetchInterval(app, .minimum)
        try noMode.background(app)
        try noMode.advance(seconds: 6 * Self.hour)
        #expect(noMode.events(.runStarted).isEmpty)

        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.setFetchInterval(app, .seconds(.seconds(2 * Self.hour)))
        try engine.background(app)
        try engine.advance(seconds: 5 * Self.hour)
        let fetches = engine.events(.runStarted)
        #expect(fetches.count == 3)
        #expect(fetches.allSatisfy { $0.data["kind"] == "fetch" })
        let run = try #require(engine.app().runtime.runs.first)
        #expect(run.deadline - run.startedAt == .seconds(30))
        #expect(throws: EmulationError.self) { try engine.completeRun(app, runId: run.id, result: .success) }
    }
}
