import Foundation
import Testing
@testable import Emulation

/// The clock, timers and determinism of the engine.
struct DeviceEngineTests {
    let app = EngineFixture.weather

    @Test func advanceFiresTimersInTimeOrderEachAtItsOwnInstant() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(), EngineFixture.app("com.example.b")])
        try engine.launch("com.example.b")
        try engine.background("com.example.b")
        try engine.advance(seconds: 2)
        try engine.launch(app)
        try engine.background(app)
        try engine.advance(seconds: 3600)
        let suspensions = engine.events(.appStateChanged).filter { $0.data["to"] == "suspended" }
        #expect(suspensions.map { $0.bundleId } == ["com.example.b", app])
        #expect(suspensions.map { engine.seconds(of: $0) } == [5, 7])
        #expect(engine.events.last?.type == .clockAdvanced)
    }

    @Test func advanceIsBoundedAndNeverGoesBack() throws {
        var engine = EngineFixture.engine()
        #expect(throws: EmulationError.self) { try engine.advance(seconds: 31 * 86_400) }
        try engine.advance(seconds: 10)
        #expect(throws: EmulationError.self) { try engine.advance(to: .defaultStart) }
    }

    /// Past `VirtualInstant.latest` a date would need a 5-digit year, which RFC 3339 has not: the clock stops there.
    @Test func advanceStopsAtTheLatestInstant() throws {
        var engine = EngineFixture.engine()
        engine.device.clock.anchor = VirtualInstant.latest - .seconds(86_400)
        #expect(throws: EmulationError.self) { try engine.advance(seconds: 86_401) }
        try engine.advance(seconds: 86_400)
        #expect(engine.now == .latest)
        #expect(RFC3339.format(engine.now) == "9000-01-01T00:00:00.000Z")
    }

    @Test func aWeekOfABusyDeviceAdvancesInSevenCalls() throws {
        let script = AppBehavior(runs: [.fetch: RunBehavior(completeAfter: .seconds(3), result: .newData)])
        var engine = EngineFixture.engine(apps: (0..<10).map { EngineFixture.app("com.example.a\($0)", behavior: script) })
        for i in 0..<10 {
            try engine.launch("com.example.a\(i)")
            try engine.setFetchInterval("com.example.a\(i)", .minimum)
        }
        try engine.background("com.example.a9")
        for _ in 0..<7 { try engine.advance(seconds: 86_400) }
        #expect(engine.events(.runStarted).count > 100)
        #expect(engine.now == VirtualInstant.defaultStart + .seconds(7 * 86_400))
    }

    @Test func sameSeedAndCommandsGiveTheSameEvents() throws {
        func script(seed: UInt64) throws -> [EmulationEvent] {
            var engine = EngineFixture.engine(seed: seed)
            try engine.launch(app)
            try engine.submit(app, TaskRequest(kind: .appRefresh, identifier: EngineFixture.refreshId, submittedAt: engine.now))
            try engine.setFetchInterval(app, .minimum)
            try engine.beginBackgroundTask(app, name: "t")
            try engine.background(app)
            try engine.advance(seconds: 86_400)
            return engine.events
        }
        #expect(try script(seed: 7) == script(seed: 7))
        #expect(try script(seed: 7) != script(seed: 8))  // the jitter of opportunities comes from the seed
    }

    @Test func stateSurvivesEncodingMidTimeline() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.beginBackgroundTask(app, name: "t")
        try engine.background(app)
        try engine.advance(seconds: 3)
        let data = try JSONEncoder().encode(engine.device)
        var resumed = DeviceEngine(device: try JSONDecoder().decode(Device.self, from: data))
        try engine.advance(seconds: 600)
        try resumed.advance(seconds: 600)
        #expect(resumed.events == Array(engine.events.suffix(resumed.events.count)))
        #expect(resumed.device == engine.device)
    }

    @Test func policyOverridesChangeTheConstants() throws {
        var engine = EngineFixture.engine(policy: ["backgroundTaskAllowance": 3, "expirationWarning": 1])
        try engine.launch(app)
        try engine.beginBackgroundTask(app, name: nil)
        try engine.background(app)
        try engine.advance(seconds: 10)
        #expect(engine.seconds(of: try #require(engine.events(.backgroundTaskExpiring).first)) == 2)
        #expect(engine.events(.appTerminated).first.map { engine.seconds(of: $0) } == 3)
        #expect(Profile.validate(["backgroundTaskAllowance": 0]).count == 1)
        #expect(Profile.validate(["warp": 1]).count == 1)
        #expect(Profile.validate(["dailyLaunchBudget": 2.5]).count == 1)
    }
}
