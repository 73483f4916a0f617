import Testing
@testable import Emulation

/// R8–R14: `beginBackgroundTask` and its allowance.
struct BackgroundTaskRuleTests {
    let app = EngineFixture.weather

    @Test func R8_eachTaskHasItsOwnIdentifierAndEndsOnItsOwn() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        let a = try #require(try engine.beginBackgroundTask(app, name: "a"))
        let b = try #require(try engine.beginBackgroundTask(app, name: "b"))
        #expect(a.id != b.id)
        try engine.background(app)
        try engine.endBackgroundTask(app, taskId: a.id)
        try engine.advance(seconds: 10)
        #expect(engine.app().state == .background)
        #expect(engine.app().runtime.openTasks.map(\.id) == [b.id])
        #expect(throws: EmulationError.self) { try engine.endBackgroundTask(app, taskId: a.id) }
    }

    @Test func R9_allowanceCountsFromEnteringTheBackground() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.beginBackgroundTask(app, name: "early")
        try engine.advance(seconds: 100)
        try engine.background(app)
        try engine.advance(seconds: 24.9)
        #expect(engine.events(.backgroundTaskExpiring).isEmpty)
        try engine.advance(seconds: 0.1)
        let expiring = try #require(engine.events(.backgroundTaskExpiring).first)
        #expect(engine.seconds(of: expiring) == 125)
    }

    @Test func R10_backgroundTimeRemainingIsNullInForegroundAndCountsDownInBackground() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.beginBackgroundTask(app, name: nil)
        #expect(engine.backgroundTimeRemaining(app) == nil)
        try engine.background(app)
        #expect(engine.backgroundTimeRemaining(app) == 30)
        try engine.advance(seconds: 12.5)
        #expect(engine.backgroundTimeRemaining(app) == 17.5)
        var old = EngineFixture.engine(os: "6.1")
        try old.launch(app)
        try old.beginBackgroundTask(app, name: nil)
        try old.background(app)
        #expect(old.backgroundTimeRemaining(app) == 600)
    }

    @Test func R11_expirationHandlerIsCalledFiveSecondsBeforeTheEnd() throws {
        var engine = EngineFixture.engine(os: "12.0")
        try engine.launch(app)
        try engine.beginBackgroundTask(app, name: "sync")
        try engine.background(app)
        try engine.advance(seconds: 300)
        let expiring = try #require(engine.events(.backgroundTaskExpiring).first)
        #expect(engine.seconds(of: expiring) == 175)
        #expect(expiring.data["backgroundTimeRemaining"] == 5.0)
    }

    @Test func R12_taskNotEndedGetsTheAppKilledByTheWatchdog() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.beginBackgroundTask(app, name: "forgotten")
        try engine.background(app)
        try engine.advance(seconds: 29.999)
        #expect(engine.app().state == .background)
        try engine.advance(seconds: 0.001)
        let terminated = try #require(engine.events(.appTerminated).first)
        #expect(terminated.data["reason"] == "watchdog")
        #expect(terminated.data["terminationCode"] == "0x8badf00d")
        #expect(terminated.data["wasRunning"] == true && terminated.data["previousState"] == "background")
        #expect(engine.seconds(of: terminated) == 30)
        #expect(engine.app().state == .notRunning)
        #expect(engine.app().runtime.backgroundTasks.first?.state == .expired)
    }

    @Test func R12_endingInTheExpirationHandlerAvoidsTermination() throws {
        let script = AppBehavior(onEnterBackground: TaskBehavior(name: "save", endAfter: nil, endOnExpiration: true))
        var engine = EngineFixture.engine(apps: [EngineFixture.app(behavior: script)])
        try engine.launch(app)
        try engine.background(app)
        try engine.advance(seconds: 60)
        #expect(engine.events(.appTerminated).isEmpty)
        let ended = try #require(engine.events(.backgroundTaskEnded).first)
        #expect(ended.data["reason"] == "expirationHandler" && engine.seconds(of: ended) == 25)
        #expect(engine.app().state == .suspended)
    }

    @Test func R13_endingTheLastTaskSuspendsAtOnce() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        let task = try #require(try engine.beginBackgroundTask(app, name: nil))
        try engine.background(app)
        try engine.advance(seconds: 12)
        try engine.endBackgroundTask(app, taskId: task.id)
        let suspended = try #require(engine.events(.appStateChanged).last)
        #expect(suspended.data["to"] == "suspended" && engine.seconds(of: suspended) == 12)
    }

    @Test func R14_withoutMultitaskingTheIdentifierIsInvalidAndTheAppTerminates() throws {
        var engine = EngineFixture.engine(os: "4.1", multitasking: false)
        try engine.launch(app)
        #expect(try engine.beginBackgroundTask(app, name: "x") == nil)
        try engine.background(app)
        #expect(engine.app().state == .notRunning)
        #expect(engine.events(.appTerminated).first?.data["reason"] == "noMultitasking")
    }

    @Test func scriptedTaskEndsAfterItsTime() throws {
        let script = AppBehavior(onEnterBackground: TaskBehavior(name: "upload", endAfter: .seconds(8), endOnExpiration: false))
        var engine = EngineFixture.engine(apps: [EngineFixture.app(behavior: script)])
        try engine.launch(app)
        try engine.background(app)
        try engine.advance(seconds: 60)
        #expect(engine.seconds(of: try #require(engine.events(.backgroundTaskEnded).first)) == 8)
        #expect(engine.app().state == .suspended)
    }

    @Test func aSuspendedAppCannotBeginATask() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.background(app)
        try engine.advance(seconds: 10)
        #expect(throws: EmulationError.self) { try engine.beginBackgroundTask(app, name: nil) }
    }
}
