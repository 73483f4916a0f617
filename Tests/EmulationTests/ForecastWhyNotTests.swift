import Testing
@testable import Emulation

/// The attribution of a device that never ran: the condition unmet at the most sampled opportunities, ties to the
/// one the engine weighs first (R25's order).
@Suite struct ForecastWhyNotTests {
    @Test func R25_theConditionUnmetMostOftenIsCharged() {
        var whyNot = ForecastWhyNot()
        whyNot.count(["usagePrediction", "notForceQuit"])
        whyNot.count(["notForceQuit"])
        whyNot.count(["notInForeground"])
        #expect(whyNot.blocker == "notForceQuit")
    }

    @Test func R25_aTieGoesToTheConditionWeighedFirst() {
        var whyNot = ForecastWhyNot()
        whyNot.count([ForecastWhyNot.requestPending, "lowPowerModeOff"])
        whyNot.count(["lowPowerModeOff", ForecastWhyNot.requestPending])
        #expect(whyNot.blocker == "lowPowerModeOff")
        var battery = ForecastWhyNot()
        battery.count(["budget", "batteryNotCritical"])
        #expect(battery.blocker == "batteryNotCritical")
    }

    @Test func noUnmetConditionIsChargedToNone() {
        #expect(ForecastWhyNot().blocker == ForecastWhyNot.none)
    }

    @Test func R18_theNamesAreTheEligibilityRoutes() throws {
        // Every condition the engine names for a pending refresh is in the attribution's order.
        var engine = EngineFixture.engine(apps: [EngineFixture.app(modes: [.fetch], identifiers: [EngineFixture.refreshId])])
        try engine.launch(EngineFixture.weather)
        try engine.submit(EngineFixture.weather, TaskRequest(kind: .appRefresh, identifier: EngineFixture.refreshId, submittedAt: engine.now))
        let names = try engine.eligibility(EngineFixture.weather, identifier: EngineFixture.refreshId).conditions.map(\.name)
        #expect(!names.isEmpty)
        #expect(names.allSatisfy(ForecastWhyNot.order.contains))
    }
}
