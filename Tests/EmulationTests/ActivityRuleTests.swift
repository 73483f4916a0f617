import Testing
@testable import Emulation

/// R35–R39 and R7's VoIP part: continuous background modes.
struct ActivityRuleTests {
    let app = EngineFixture.weather

    func engine(modes: [BackgroundMode], os: String = "17.0") throws -> DeviceEngine {
        var engine = EngineFixture.engine(os: os, apps: [EngineFixture.app(modes: modes)])
        try engine.launch(app)
        return engine
    }

    @Test func R35_audioKeepsTheAppRunningWhilePlayingAndStoppingLetsItSuspend() throws {
        var engine = try engine(modes: [.audio])
        let outcome = try engine.setActivity(app, .audio, active: true)
        #expect(outcome == ActivityOutcome(activity: .audio, active: true, keepsAppRunning: true, reason: "playing"))
        try engine.background(app)
        try engine.advance(seconds: 3600)
        #expect(engine.app().state == .background)
        try engine.setActivity(app, .audio, active: false)
        #expect(engine.app().state == .suspended)
    }

    @Test func R35_withoutTheModeAudioStopsOnLeavingTheForeground() throws {
        var engine = try engine(modes: [.fetch])
        let outcome = try engine.setActivity(app, .audio, active: true)
        #expect(!outcome.keepsAppRunning && outcome.reason == "modeNotDeclared")
        try engine.background(app)
        let stopped = try #require(engine.events(.activityStopped).last)
        #expect(stopped.data["activity"] == "audio" && stopped.data["reason"] == "modeNotDeclared")
        #expect(!engine.app().runtime.activities.isActive(.audio))
        try engine.advance(seconds: 6)
        #expect(engine.app().state == .suspended)
    }

    @Test func R36_standardUpdatesKeepTheAppRunningOnlyWithTheMode() throws {
        var withMode = try engine(modes: [.location])
        #expect(try withMode.setActivity(app, .location, active: true).keepsAppRunning)
        try withMode.background(app)
        try withMode.advance(seconds: 600)
        #expect(withMode.app().state == .background)
        var withoutMode = try engine(modes: [.fetch])
        #expect(try withoutMode.setActivity(app, .location, active: true).reason == "modeNotDeclared")
        try withoutMode.background(app)
        try withoutMode.advance(seconds: 600)
        #expect(withoutMode.app().state == .suspended)
    }

    @Test func R36_significantChangesRelaunchEvenAForceQuitAppEvery500mAnd5Minutes() throws {
        var engine = try engine(modes: [.fetch])
        try engine.setActivity(app, .significantLocationChanges, active: true)
        try engine.moveDevice(latitude: 48.8566, longitude: 2.3522)  // first fix: delivered in the foreground
        try engine.forceQuit(app)
        engine.clearEvents()
        try engine.advance(seconds: 400)
        try engine.moveDevice(latitude: 48.8570, longitude: 2.3522)  // ~45 m: not significant
        #expect(engine.app().state == .notRunning)
        try engine.moveDevice(latitude: 48.8656, longitude: 2.3522)  // ~1 km
        #expect(engine.app().state == .background)
        let run = try #require(engine.app().runtime.runs.last)
        #expect(run.kind == .location && run.launchedApp && run.deadline - run.startedAt == .seconds(10))
        try engine.advance(seconds: 60)
        try engine.moveDevice(latitude: 48.8756, longitude: 2.3522)  // 1 km more, but 1 minute later
        #expect(engine.events(.locationDelivered).count == 1)
        try engine.advance(seconds: 300)
        try engine.moveDevice(latitude: 48.8856, longitude: 2.3522)
        #expect(engine.events(.locationDelivered).count == 2)
    }

    @Test func R36_beforeIOS8AForceQuitAppIsNotRelaunched() throws {
        var engine = try engine(modes: [.fetch], os: "7.1")
        try engine.setActivity(app, .significantLocationChanges, active: true)
        try engine.forceQuit(app)
        try engine.moveDevice(latitude: 10, longitude: 10)
        #expect(engine.app().state == .notRunning)
    }

    @Test func R37_voipKeepAliveRunsEveryIntervalOfAtLeast600Seconds() throws {
        var engine = try engine(modes: [.voip])
        #expect(throws: EmulationError.self) { try engine.setActivity(app, .voip, active: true, keepAliveInterval: .seconds(599)) }
        let outcome = try engine.setActivity(app, .voip, active: true, keepAliveInterval: .seconds(600))
        #expect(!outcome.keepsAppRunning && outcome.reason == "wakesForKeepAlive")
        try engine.background(app)
        try engine.advance(seconds: 1900)
        let runs = engine.app().runtime.runs.filter { $0.kind == .voip }
        #expect(runs.map { ($0.startedAt - VirtualInstant.defaultStart).seconds } == [600, 1200, 1800])
        #expect(runs.prefix(2).allSatisfy { $0.state == .expired })  // never completed: watchdog (R22)
    }

    @Test func R7_voipAppsAreRelaunchedAfterReboot() throws {
        var engine = EngineFixture.engine(apps: [
            EngineFixture.app(modes: [.voip]), EngineFixture.app("com.example.other", modes: [.fetch]),
        ])
        try engine.launch(app)
        try engine.launch("com.example.other")
        engine.reboot()
        #expect(engine.app().state == .background)
        #expect(engine.app().runtime.runs.last?.reason == "reboot" && engine.app().runtime.runs.last?.kind == .voip)
        #expect(engine.app("com.example.other").state == .notRunning)
    }

    @Test func R38_accessoryDataWakesAppsWithTheModeAndAnActiveActivity() throws {
        var engine = EngineFixture.engine(apps: [
            EngineFixture.app(modes: [.bluetoothCentral]), EngineFixture.app("com.example.ea", modes: [.externalAccessory]),
            EngineFixture.app("com.example.nomode", modes: [.fetch]),
        ])
        for bundle in [app, "com.example.ea", "com.example.nomode"] {
            try engine.launch(bundle)
            try engine.setActivity(bundle, bundle == "com.example.ea" ? .externalAccessory : .bluetooth, active: true)
        }
        try engine.background("com.example.nomode")
        try engine.advance(seconds: 10)  // every app is suspended
        try engine.accessoryData("acc_1", transport: .bluetooth)
        #expect(engine.app().state == .background)
        let run = try #require(engine.app().runtime.runs.last)
        #expect(run.kind == .accessory && run.deadline - run.startedAt == .seconds(10))
        #expect(engine.app("com.example.ea").runtime.runs.isEmpty)
        #expect(engine.app("com.example.nomode").runtime.runs.isEmpty)
        try engine.accessoryData("acc_2", transport: .externalAccessory)
        #expect(engine.app("com.example.ea").state == .background)
    }

    /// An engine whose Bluetooth app was woken from suspension by accessory data at t = 10 s.
    func wokenByAccessory(behavior: AppBehavior? = nil) throws -> DeviceEngine {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(modes: [.bluetoothCentral], behavior: behavior)])
        try engine.launch(app)
        try engine.setActivity(app, .bluetooth, active: true)
        try engine.background(app)
        try engine.advance(seconds: 10)
        #expect(engine.app().state == .suspended)
        engine.clearEvents()
        #expect(try engine.accessoryData("hr-strap", transport: .bluetooth) == [app])
        return engine
    }

    @Test func R38_anAccessoryWakeThatDoesNothingMoreEndsWithTheAppSuspendedNotTerminated() throws {
        var engine = try wokenByAccessory()
        let run = try #require(engine.app().runtime.runs.last)
        try engine.advance(seconds: 9.999)
        #expect(engine.app().state == .background)
        try engine.advance(seconds: 0.001)
        #expect(engine.app().state == .suspended)
        try engine.advance(seconds: 600)
        #expect(engine.app().state == .suspended)
        #expect(engine.events(.appTerminated).isEmpty && engine.events(.runExpiring).isEmpty)
        #expect(engine.events(.runExpired).isEmpty)
        let ended = try #require(engine.app().runtime.runs.first { $0.id == run.id })
        #expect(ended.state == .completed && ended.result == nil && ended.endedAt == ended.deadline)
        let completed = try #require(engine.events(.runCompleted).first)
        #expect(completed.data["reason"] == "wakeEnded" && completed.data["result"] == .null)
        #expect(engine.trace().suffix(2) == ["run.completed", "state:suspended"])
        // The app may still report that it is done early: it is suspended at once (R23).
        #expect(try engine.accessoryData("hr-strap", transport: .bluetooth) == [app])
        let second = try #require(engine.app().runtime.runs.last)
        try engine.completeRun(app, runId: second.id, result: .success)
        #expect(engine.app().state == .suspended)
        #expect(engine.events(.runCompleted).last?.data["reason"] == "reported")
    }

    @Test func R38_aScriptedAccessoryAnswerThatNeverCompletesAlsoEndsSuspended() throws {
        let behavior = AppBehavior(runs: [.accessory: RunBehavior(completeAfter: nil, result: .success)])
        var engine = try wokenByAccessory(behavior: behavior)
        try engine.advance(seconds: 60)
        #expect(engine.app().state == .suspended && engine.events(.appTerminated).isEmpty)
    }

    @Test func R38_aBackgroundTaskBegunDuringTheWakeAndHeldPastItsAllowanceStillGetsTheWatchdog() throws {
        var engine = try wokenByAccessory()
        let task = try #require(try engine.beginBackgroundTask(app, name: "upload"))
        try engine.advance(seconds: 10)  // the wake is over; the task holds the app
        #expect(engine.app().state == .background && engine.events(.runExpiring).isEmpty)
        try engine.advance(seconds: 15)  // 5 s before the 30 s allowance: the expiration handler
        let expiring = try #require(engine.events(.backgroundTaskExpiring).first)
        #expect(expiring.data["taskId"] == .string(task.id))
        try engine.advance(seconds: 5)
        let terminated = try #require(engine.events(.appTerminated).first)
        #expect(terminated.data["reason"] == "watchdog" && terminated.data["terminationCode"] == "0x8badf00d")
        #expect(terminated.data["taskIds"] == .array([.string(task.id)]) && terminated.data["runId"] == nil)
        #expect(engine.seconds(of: terminated) == 40)
    }

    @Test func R39_aNewsstandIssueLaunchesTheAppToStartItsDownload() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(modes: [.newsstandContent])])
        let run = try engine.newsstandIssue(app, name: "2026-01")
        #expect(run.kind == .newsstand && run.launchedApp && engine.app().state == .background)
        var noMode = EngineFixture.engine(apps: [EngineFixture.app(modes: [.fetch])])
        #expect(throws: EmulationError.self) { try noMode.newsstandIssue(app, name: "2026-01") }
    }
}
