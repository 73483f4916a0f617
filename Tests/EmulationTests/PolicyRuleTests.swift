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

    /// An opportunity weighs a candidate by stopping at its first unmet condition; its verdict must be the one the
    /// `eligibility` route lists: every condition met. Checked for each candidate in states that fail each factor.
    @Test func R25_anOpportunitysVerdictIsEveryListedConditionMet() throws {
        let base = try pendingRefresh()
        var states: [DeviceEngine] = [base]
        func variant(_ change: (inout DeviceEngine) throws -> Void) rethrows {
            var engine = base
            try change(&engine)
            states.append(engine)
        }
        try variant { _ = try $0.simulateLaunch(app, identifier: refresh) }  // an open run
        try variant { try $0.launch(app) }  // in the foreground
        variant { $0.device.conditions.batteryLevel = 5 }
        variant { $0.device.conditions.lowPowerMode = true }
        variant { $0.device.conditions.backgroundAppRefresh = false }
        variant { $0.device.conditions.network = .none }
        variant { $0.device.conditions.locked = true }
        variant { $0.device.apps[0].settings.backgroundAppRefresh = false }
        variant { $0.device.apps[0].runtime.forceQuit = true }
        variant { $0.device.apps[0].runtime.lastDiscretionaryLaunchAt = $0.now }
        variant { $0.device.apps[0].runtime.budget = LaunchBudget(); $0.device.apps[0].runtime.budget.day = $0.today
            $0.device.apps[0].runtime.budget.used = 1_000 }
        variant { engine in  // a usage pattern: launched at this time of day on the three days before
            engine.device.apps[0].runtime.launchHistory = (1...3).map { VirtualInstant(milliseconds: engine.now.milliseconds - $0 * DeviceEngine.day) }
        }
        variant { $0.device.apps[0].runtime.fetchInterval = .minimum }
        variant { $0.device.apps[0].runtime.fetchInterval = .seconds(.seconds(3600)); $0.device.apps[0].runtime.lastFetchAt = $0.now }
        let requests = [
            TaskRequest(kind: .appRefresh, identifier: refresh, submittedAt: base.now),
            TaskRequest(kind: .appRefresh, identifier: refresh, earliestBeginDate: base.now + .seconds(60), submittedAt: base.now),
            TaskRequest(kind: .processing, identifier: EngineFixture.cleanupId, requiresNetworkConnectivity: true,
                        requiresExternalPower: true, submittedAt: base.now),
            TaskRequest(kind: .appRefresh, identifier: "com.example.unknown", submittedAt: base.now),
        ]
        var verdicts: [Bool] = []
        for engine in states {
            let slot = try #require(engine.device.appSlot(app))
            for candidate in requests.map(DeviceEngine.Candidate.request) + [.fetch] {
                for atPredictedUse in [false, true] {
                    var unknown: VirtualInstant?? = nil
                    var alsoUnknown: VirtualInstant?? = nil
                    let verdict = engine.conditions(
                        slot, candidate, atPredictedUse: atPredictedUse, predicted: &unknown, explain: false, verdictOnly: true)
                    let listed = engine.conditions(slot, candidate, atPredictedUse: atPredictedUse, predicted: &alsoUnknown)
                    #expect(verdict.items.isEmpty)
                    #expect(verdict.allMet == listed.items.allSatisfy(\.met))
                    #expect(listed.allMet == listed.items.allSatisfy(\.met))
                    verdicts.append(verdict.allMet)
                }
            }
        }
        // Both verdicts occur, so the comparison above is not vacuous.
        #expect(verdicts.contains(true) && verdicts.contains(false))
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

    /// R26 counts days of use, not launches: three launches near 8:00 on two days make no pattern (three days are
    /// needed); a third day does.
    @Test func R26_twoLaunchesOnOneDayCountAsOneDayOfUse() throws {
        var engine = EngineFixture.engine()
        let day = 86_400.0
        for (d, minutes) in [(0.0, 0.0), (0, 10), (1, 5)] {
            try engine.advance(to: VirtualInstant.defaultStart + .seconds(d * day + 8 * Self.hour + minutes * 60))
            try engine.launch(app)
            try engine.background(app)
        }
        try engine.launch(app)
        try engine.submit(app, TaskRequest(kind: .appRefresh, identifier: refresh, submittedAt: engine.now))
        try engine.background(app)
        #expect(try engine.eligibility(app, identifier: refresh).predictedLaunchAt == nil, "three launches, two days")
        try engine.advance(to: VirtualInstant.defaultStart + .seconds(2 * day + 8 * Self.hour))
        try engine.launch(app)
        try engine.submit(app, TaskRequest(kind: .appRefresh, identifier: refresh, submittedAt: engine.now))
        try engine.background(app)
        #expect(try engine.eligibility(app, identifier: refresh).predictedLaunchAt != nil, "a third day makes it")
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
