import Foundation
import Testing
@testable import Emulation

/// R29–R31: remote notifications.
struct PushRuleTests {
    let app = EngineFixture.weather
    static let silent = #"{"aps":{"content-available":1}}"#
    static let alert = #"{"aps":{"alert":{"title":"Rain","body":"Take an umbrella"}}}"#

    func engine(modes: [BackgroundMode] = [.fetch, .remoteNotification], conditions: DeviceConditions = DeviceConditions(),
                policy: [String: Double] = [:], behavior: AppBehavior? = nil) -> DeviceEngine {
        EngineFixture.engine(apps: [EngineFixture.app(modes: modes, behavior: behavior)], conditions: conditions, policy: policy)
    }

    static func request(
        _ payload: String = silent, id: Int = 1, topic: String? = EngineFixture.weather, type: String? = "background",
        priority: String? = "5", expiration: String? = nil, collapseId: String? = nil
    ) -> PushRequest {
        PushRequest(
            apnsId: String(format: "00000000-0000-0000-0000-%012d", id), payload: Array(payload.utf8), topic: topic,
            pushType: type, priority: priority, expiration: expiration, collapseId: collapseId)
    }

    func rejection(_ request: PushRequest, in engine: DeviceEngine? = nil) -> PushRejection? {
        var engine = engine ?? self.engine()
        do {
            _ = try engine.receivePush(request)
            return nil
        } catch {
            #expect(engine.events.isEmpty)
            return error
        }
    }

    // MARK: R29

    @Test func R29_apnsChecksAnswerApnsReasonWords() {
        let big = #"{"aps":{"content-available":1},"x":""# + String(repeating: "a", count: 4100) + #""}"#
        let cases: [(PushRequest, Int, String)] = [
            (Self.request(""), 400, "PayloadEmpty"),
            (Self.request("{}"), 400, "PayloadEmpty"),
            (Self.request(big), 413, "PayloadTooLarge"),
            (Self.request("{not json"), 400, "BadPayload"),
            (Self.request(#"{"x":1}"#), 400, "BadPayload"),
            (Self.request(topic: nil), 400, "MissingTopic"),
            (Self.request(topic: "com.example.other"), 400, "BadTopic"),
            (Self.request(type: "bogus"), 400, "InvalidPushType"),
            (Self.request(type: "voip"), 400, "InvalidPushType"),
            (Self.request(priority: "7"), 400, "BadPriority"),
            (Self.request(priority: "10"), 400, "BadPriority"),
            (Self.request(expiration: "tomorrow"), 400, "BadExpirationDate"),
            (Self.request(collapseId: String(repeating: "c", count: 65)), 400, "BadCollapseId"),
            (PushRequest(apnsId: "not-a-uuid", payload: Array(Self.silent.utf8), topic: app), 400, "BadMessageId"),
        ]
        for (request, status, reason) in cases {
            let rejection = self.rejection(request)
            #expect(rejection?.reason == reason, "\(reason)")
            #expect(rejection?.status == status, "\(reason)")
        }
    }

    @Test func R29_aBackgroundPushWithPriorityTenIsRefused() {
        let rejection = rejection(Self.request(priority: "10"))
        #expect(rejection?.reason == "BadPriority" && rejection?.detail.contains("R29") == true)
        #expect(self.rejection(Self.request(type: "alert", priority: "10")) == nil)
    }

    @Test func R29_aBackgroundPushNeedsTheRemoteNotificationMode() throws {
        var engine = engine(modes: [.fetch])
        let outcome = try engine.receivePush(Self.request())
        #expect(outcome.kind == .dropped && outcome.reason == "modeMissing")
        #expect(engine.events(.runStarted).isEmpty)
        #expect(engine.events(.pushDropped).first?.data["reason"] == "modeMissing")
    }

    @Test func R29_aSimctlFileNamesTheAppAndTheKeyIsStripped() throws {
        var engine = engine()
        let file = #"{"Simulator Target Bundle":"com.example.weather","aps":{"content-available":1}}"#
        let outcome = try engine.receivePush(Self.request(file, topic: nil, type: nil, priority: nil))
        #expect(outcome.kind == .delivered)
    }

    @Test func R29_anExpiredPushIsDropped() throws {
        var engine = engine()
        let past = String(engine.now.milliseconds / 1000 - 10)
        #expect(try engine.receivePush(Self.request(expiration: past)).reason == "expired")
    }

    // MARK: R30

    @Test func R30_lowPowerModeDefersUntilItEnds() throws {
        var engine = engine(conditions: DeviceConditions(lowPowerMode: true))
        let outcome = try engine.receivePush(Self.request())
        #expect(outcome.kind == .deferred && outcome.reason == "lowPowerMode")
        #expect(engine.events(.runStarted).isEmpty)
        var normal = engine.device.conditions
        normal.lowPowerMode = false
        engine.setConditions(normal)
        #expect(engine.events(.pushDelivered).first?.data["apnsId"] == .string(outcome.apnsId))
        #expect(engine.events(.runStarted).first?.data["kind"] == "remoteNotification")
    }

    @Test func R30_aCriticallyLowBatteryDefersUnlessCharging() throws {
        var engine = engine(conditions: DeviceConditions(batteryLevel: 10))
        #expect(try engine.receivePush(Self.request(id: 1)).reason == "batteryCritical")
        var charging = engine.device.conditions
        charging.charging = true
        engine.setConditions(charging)
        #expect(engine.events(.pushDelivered).count == 1)
        #expect(try engine.receivePush(Self.request(id: 2)).kind == .delivered)
    }

    @Test func R30_aDeadlineOfNowOrNeverIsDroppedRatherThanDeferred() throws {
        var engine = engine(conditions: DeviceConditions(lowPowerMode: true))
        #expect(try engine.receivePush(Self.request(expiration: "0")).reason == "expired")
    }

    @Test func R30_aNewerDeferredPushReplacesTheOlder() throws {
        var engine = engine(conditions: DeviceConditions(lowPowerMode: true))
        let first = try engine.receivePush(Self.request(id: 1))
        let second = try engine.receivePush(Self.request(id: 2))
        #expect(second.kind == .coalesced && second.replacedApnsId == first.apnsId)
        #expect(engine.events(.pushCoalesced).first?.data["apnsId"] == .string(first.apnsId))
        #expect(engine.app().runtime.pushes?.deferred.map(\.apnsId) == [second.apnsId])
    }

    @Test func R30_aReplacedPushDoesNotExpireLater() throws {
        var engine = engine(conditions: DeviceConditions(lowPowerMode: true))
        let soon = String(engine.now.milliseconds / 1000 + 60)
        let first = try engine.receivePush(Self.request(id: 1, expiration: soon))
        let second = try engine.receivePush(Self.request(id: 2))
        #expect(!engine.device.runtime.timers.contains { $0.kind == .pushExpiration(bundleId: app, apnsId: first.apnsId) })
        try engine.advance(seconds: 120)
        #expect(engine.events(.pushDropped).isEmpty, "the replaced push was coalesced, not dropped")
        #expect(engine.app().runtime.pushes?.deferred.map(\.apnsId) == [second.apnsId])
    }

    @Test func R30_moreThanTheHourlyNumberAreThrottled() throws {
        var engine = engine()
        for id in 1...3 {
            let outcome = try engine.receivePush(Self.request(id: id))
            #expect(outcome.kind == .delivered)
            let runId = try #require(outcome.runId)
            try engine.completeRun(app, runId: runId, result: .newData)
            try engine.advance(seconds: 60)
        }
        let fourth = try engine.receivePush(Self.request(id: 4))
        #expect(fourth.kind == .deferred && fourth.reason == "throttled")
        try engine.advance(seconds: 3600)  // an opportunity after the hour delivers it
        #expect(engine.events(.pushDelivered).last?.data["apnsId"] == .string(fourth.apnsId))
    }

    @Test func R30_theHourlyNumberIsATunable() throws {
        var engine = engine(policy: ["backgroundPushesPerHour": 1])
        #expect(try engine.receivePush(Self.request(id: 1)).kind == .delivered)
        #expect(try engine.receivePush(Self.request(id: 2)).reason == "throttled")
    }

    /// The engine keeps the policy in force; a change of overrides applies to the next push at once.
    @Test func R30_anHourlyNumberChangedOnAnEngineAppliesToTheNextPush() throws {
        var engine = engine()
        #expect(try engine.receivePush(Self.request(id: 1)).kind == .delivered)
        engine.setPolicyOverrides(["backgroundPushesPerHour": 1])
        #expect(try engine.receivePush(Self.request(id: 2)).reason == "throttled")
        engine.setPolicyOverrides([:])
        #expect(try engine.receivePush(Self.request(id: 3)).kind != .deferred)
    }

    @Test func R30_launchingTheAppDeliversADeferredPushAtOnceToTheForegroundApp() throws {
        var engine = engine(conditions: DeviceConditions(lowPowerMode: true))
        let outcome = try engine.receivePush(Self.request())
        try engine.launch(app)
        let received = try #require(engine.events(.appDelegate).last)
        #expect(received.data["callback"] == "didReceiveRemoteNotification" && received.data["reason"] == "userLaunch")
        #expect(received.data["apnsId"] == .string(outcome.apnsId))
        let delivered = try #require(engine.events(.pushDelivered).first)
        #expect(delivered.data["inForeground"] == true && delivered.data["runId"] == .null)
        #expect(engine.events(.runStarted).isEmpty, "the app is active: no background time is granted")
        #expect(engine.app().runtime.pushes?.deferred.isEmpty == true)
    }

    @Test func R30_backgroundAppRefreshOffDropsBackgroundPushesButNotThoseToTheForegroundApp() throws {
        var engine = engine(conditions: DeviceConditions(backgroundAppRefresh: false))
        try engine.launch(app)
        #expect(try engine.receivePush(Self.request(id: 1)).inForeground)
        try engine.background(app)
        #expect(try engine.receivePush(Self.request(id: 2)).reason == "backgroundAppRefreshOff")
    }

    @Test func R30_aPushToTheForegroundAppIsDeliveredAtOnceAndNotCountedAgainstTheBackgroundBudget() throws {
        var engine = engine(conditions: DeviceConditions(lowPowerMode: true))
        try engine.launch(app)
        for id in 1...10 {  // ten pushes in a minute, in Low Power Mode: each reaches the app at once
            let outcome = try engine.receivePush(Self.request(id: id))
            #expect(outcome.kind == .delivered && outcome.inForeground && outcome.runId == nil && outcome.reason == nil)
            try engine.advance(seconds: 5)
        }
        let calls = engine.events(.appDelegate).filter { $0.data["callback"] == "didReceiveRemoteNotification" }
        #expect(calls.count == 10)
        #expect(calls.first?.data["method"] == "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)")
        #expect(engine.events(.pushDelivered).allSatisfy { $0.data["inForeground"] == true })
        #expect(engine.events(.runStarted).isEmpty && engine.events(.pushDeferred).isEmpty)
        #expect(engine.app().runtime.pushes?.recentDeliveries.isEmpty ?? true)
        // In the background the hourly number is untouched by the foreground pushes (3 on iOS 17).
        var normal = engine.device.conditions
        normal.lowPowerMode = false
        engine.setConditions(normal)
        try engine.background(app)
        try engine.advance(seconds: 10)
        for id in 11...13 {
            let outcome = try engine.receivePush(Self.request(id: id))
            #expect(outcome.kind == .delivered && !outcome.inForeground && outcome.runId != nil)
            try engine.completeRun(app, runId: try #require(outcome.runId), result: .noData)
        }
        #expect(try engine.receivePush(Self.request(id: 14)).reason == "throttled")
    }

    @Test func R30_aDeferredPushIsDroppedAtTheInstantItExpires() throws {
        var engine = engine(conditions: DeviceConditions(lowPowerMode: true))
        let expiresAt = engine.now.milliseconds / 1000 + 60
        let outcome = try engine.receivePush(Self.request(expiration: String(expiresAt)))
        #expect(outcome.kind == .deferred)
        try engine.advance(seconds: 120)
        let dropped = try #require(engine.events(.pushDropped).first)
        #expect(dropped.data["reason"] == "expired" && dropped.data["apnsId"] == .string(outcome.apnsId))
        #expect(dropped.at.milliseconds == expiresAt * 1000)
        #expect(engine.app().runtime.pushes?.deferred.isEmpty == true)
        try engine.launch(app)
        #expect(engine.events(.runStarted).isEmpty && engine.events(.pushDropped).count == 1)
    }

    @Test func R30_aDeferredPushDeliveredBeforeItExpiresLeavesNoTimerBehind() throws {
        var engine = engine(conditions: DeviceConditions(lowPowerMode: true))
        let outcome = try engine.receivePush(Self.request(expiration: String(engine.now.milliseconds / 1000 + 600)))
        try engine.launch(app)   // delivered at once
        #expect(engine.events(.pushDelivered).first?.data["apnsId"] == .string(outcome.apnsId))
        #expect(!engine.device.runtime.timers.contains { $0.kind == .pushExpiration(bundleId: app, apnsId: outcome.apnsId) })
        try engine.advance(seconds: 900)
        #expect(engine.events(.pushDropped).isEmpty)
    }

    // MARK: R31

    @Test func R31_aDeliveredPushLaunchesTheAppIntoTheBackgroundForAbout30Seconds() throws {
        var engine = engine()
        let outcome = try engine.receivePush(Self.request())
        #expect(outcome.kind == .delivered)
        let run = try #require(engine.app().runtime.runs.first { $0.id == outcome.runId })
        #expect(run.kind == .remoteNotification && run.launchedApp)
        #expect((run.deadline - run.startedAt).seconds == 30)
        #expect(engine.app().state == .background)
        #expect(engine.trace().contains("delegate:didFinishLaunching"))
        try engine.completeRun(app, runId: run.id, result: .newData)
        #expect(engine.app().runtime.runs.first { $0.id == run.id }?.result == .newData)
    }

    @Test func R31_aPushThatWakesTheAppCallsItsDelegateForTheRunAsInTheForeground() throws {
        var engine = engine()
        let outcome = try engine.receivePush(Self.request())
        let runId = try #require(outcome.runId)
        let callback = try #require(engine.events(.appDelegate).last)
        #expect(callback.data["callback"] == "didReceiveRemoteNotification")
        #expect(callback.data["runId"] == .string(runId))
        #expect(engine.trace().suffix(3) == ["run.started", "delegate:didReceiveRemoteNotification", "push.delivered"])
    }

    @Test func R31_aSuspendedAppIsWokenAndAScriptedAppCompletes() throws {
        let behavior = AppBehavior(runs: [.remoteNotification: RunBehavior(completeAfter: .seconds(3), result: .noData)])
        var engine = engine(behavior: behavior)
        try engine.launch(app)
        try engine.background(app)
        try engine.advance(seconds: 10)
        #expect(engine.app().state == .suspended)
        let outcome = try engine.receivePush(Self.request())
        #expect(engine.app().state == .background)
        try engine.advance(seconds: 5)
        #expect(engine.app().runtime.runs.first { $0.id == outcome.runId }?.result == .noData)
    }

    @Test func R31_neverToAForceQuitApp() throws {
        var engine = engine(conditions: DeviceConditions(lowPowerMode: true))
        try engine.launch(app)
        try engine.background(app)
        _ = try engine.receivePush(Self.request(id: 1))  // deferred, then dropped by the force quit
        try engine.forceQuit(app)
        #expect(engine.events(.pushDropped).first?.data["reason"] == "forceQuit")
        var normal = engine.device.conditions
        normal.lowPowerMode = false
        engine.setConditions(normal)
        let outcome = try engine.receivePush(Self.request(id: 2))
        #expect(outcome.kind == .dropped && outcome.reason == "forceQuit")
        #expect(engine.events(.runStarted).isEmpty)
    }

    @Test func R31_anAlertPushIsShownToAForceQuitAppButDoesNotWakeIt() throws {
        var engine = engine()
        try engine.forceQuit(app)
        let both = #"{"aps":{"alert":"Rain","content-available":1}}"#
        let outcome = try engine.receivePush(Self.request(both, type: "alert", priority: "10"))
        #expect(outcome.notificationDelivered && outcome.kind == .dropped && outcome.reason == "forceQuit")
        let shown = try #require(engine.events(.notificationDelivered).first)
        #expect(shown.data["source"] == "remote" && shown.data["body"] == "Rain" && shown.data["appState"] == "notRunning")
    }

    @Test func R31_anAlertPushWithContentAvailableAlsoWakesTheApp() throws {
        var engine = engine()
        let both = #"{"aps":{"alert":"Rain","content-available":1}}"#
        let outcome = try engine.receivePush(Self.request(both, type: "alert", priority: "10"))
        #expect(outcome.notificationDelivered && outcome.kind == .delivered && outcome.runId != nil)
        let alertOnly = try engine.receivePush(Self.request(Self.alert, id: 2, type: "alert", priority: "10"))
        #expect(alertOnly.kind == .delivered && alertOnly.runId == nil && alertOnly.notificationDelivered)
    }
}
