import Foundation
import Testing
@testable import Emulation

/// A ``DeviceCommand`` applied through `apply` leaves the same device and events as the engine calls it names, and
/// resolves its times against the engine's own `now`.
struct DeviceCommandTests {
    let app = EngineFixture.weather

    /// Applies `command` to the engine and `direct` to a copy of it: both must leave the same device and the same
    /// events. The engine goes on as the command left it; answers the command's outcome.
    @discardableResult
    func expectSame(
        _ engine: inout DeviceEngine, _ command: DeviceCommand, _ direct: (inout DeviceEngine) throws -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CommandOutcome {
        var viaCalls = engine
        let before = engine.events.count
        let outcome = try engine.apply(command)
        try direct(&viaCalls)
        #expect(engine.device == viaCalls.device, sourceLocation: sourceLocation)
        #expect(engine.events == viaCalls.events, sourceLocation: sourceLocation)
        #expect(outcome.eventsEmitted == engine.events.count - before, sourceLocation: sourceLocation)
        return outcome
    }

    @Test func lifecycleCommandsAreTheEngineCalls() throws {
        var engine = EngineFixture.engine()
        try expectSame(&engine, .launch(bundleId: app, launchHandlers: nil)) { try $0.launch(app) }
        try expectSame(&engine, .background(bundleId: app)) { try $0.background(app) }
        try expectSame(&engine, .foreground(bundleId: app)) { try $0.foreground(app) }
        try expectSame(&engine, .forceQuit(bundleId: app)) { try $0.forceQuit(app) }
        try expectSame(&engine, .launch(bundleId: app, launchHandlers: [EngineFixture.refreshId])) {
            try $0.launch(app, registering: [EngineFixture.refreshId])
        }
        try engine.background(app)
        try expectSame(&engine, .terminate(bundleId: app)) { try $0.terminate(app) }
        try expectSame(&engine, .reboot) { $0.reboot() }
        #expect(throws: EmulationError.notFound(kind: "app", id: "com.example.none")) {
            try engine.apply(.launch(bundleId: "com.example.none", launchHandlers: nil))
        }
    }

    @Test func advanceResolvesItsTimeAgainstTheEnginesNow() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        let start = engine.now
        try expectSame(&engine, .advance(.after(.seconds(60)), stopAtAppCode: false)) { try $0.advance(to: $0.now + .seconds(60)) }
        #expect(engine.now == start + .seconds(60))
        let later = engine.now + .seconds(600)
        try expectSame(&engine, .advance(.rfc3339(RFC3339.format(later)), stopAtAppCode: false)) { try $0.advance(to: later) }
        try expectSame(&engine, .advance(.at(later + .seconds(5)), stopAtAppCode: true)) {
            try $0.advance(to: later + .seconds(5), stoppingAtAppCode: true)
        }
        #expect(engine.now == later + .seconds(5))
        #expect(throws: EmulationError.invalid([FieldIssue("to", "must be an RFC 3339 date-time")])) {
            try engine.apply(.advance(.rfc3339("tomorrow"), stopAtAppCode: false))
        }
    }

    @Test func advanceStoppedAtAppCodeIsInItsOutcome() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.submit(app, TaskRequest(kind: .appRefresh, identifier: EngineFixture.refreshId, submittedAt: engine.now))
        try engine.background(app)
        try engine.advance(seconds: 10)
        _ = try engine.simulateLaunch(app, identifier: EngineFixture.refreshId)
        let outcome = try expectSame(&engine, .advance(.after(.seconds(3600)), stopAtAppCode: true)) {
            try $0.advance(to: $0.now + .seconds(3600), stoppingAtAppCode: true)
        }
        #expect(outcome.stopped)
    }

    @Test func taskRequestCommandsResolveTheirDatesAtSubmission() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.advance(seconds: 100)
        let draft = TaskRequestDraft(kind: .appRefresh, identifier: EngineFixture.refreshId, earliestBeginDate: .after(.seconds(900)))
        let submitted = try expectSame(&engine, .submitTaskRequest(bundleId: app, draft)) { engine in
            try engine.submit(app, TaskRequest(
                kind: .appRefresh, identifier: EngineFixture.refreshId, earliestBeginDate: engine.now + .seconds(900),
                submittedAt: engine.now))
        }
        #expect(submitted.taskRequest?.earliestBeginDate == engine.now + .seconds(900))
        #expect(submitted.taskRequest?.submittedAt == engine.now)
        let cleanup = TaskRequestDraft(
            kind: .processing, identifier: EngineFixture.cleanupId, earliestBeginDate: .rfc3339("2026-01-02T00:00:00Z"),
            requiresExternalPower: true)
        let processing = try engine.apply(.submitTaskRequest(bundleId: app, cleanup))
        #expect(processing.taskRequest?.earliestBeginDate == RFC3339.parse("2026-01-02T00:00:00Z"))
        try expectSame(&engine, .cancelTaskRequest(bundleId: app, identifier: EngineFixture.cleanupId)) {
            try $0.cancelTaskRequest(app, identifier: EngineFixture.cleanupId)
        }
        try expectSame(&engine, .background(bundleId: app)) { try $0.background(app) }
        let launched = try expectSame(&engine, .simulateLaunch(bundleId: app, identifier: EngineFixture.refreshId)) {
            _ = try $0.simulateLaunch(app, identifier: EngineFixture.refreshId)
        }
        let run = try #require(launched.run)
        #expect(engine.app().runtime.openRuns.map(\.id) == [run.id])
        try expectSame(&engine, .completeRun(bundleId: app, .latestOpen(runId: nil, identifier: EngineFixture.refreshId), result: .success)) {
            try $0.completeRun(app, runId: run.id, result: .success)
        }
        #expect(throws: EmulationError.conflict(code: "noOpenRun", detail: "\(app) has no open run for \(EngineFixture.refreshId) to complete.")) {
            try engine.apply(.completeRun(bundleId: app, .latestOpen(runId: nil, identifier: EngineFixture.refreshId), result: .success))
        }
        try engine.submit(app, TaskRequest(kind: .appRefresh, identifier: EngineFixture.refreshId, submittedAt: engine.now))
        _ = try engine.simulateLaunch(app, identifier: EngineFixture.refreshId)
        try expectSame(&engine, .simulateExpiration(bundleId: app, identifier: EngineFixture.refreshId)) {
            try $0.simulateExpiration(app, identifier: EngineFixture.refreshId)
        }
        try engine.submit(app, TaskRequest(kind: .appRefresh, identifier: EngineFixture.refreshId, submittedAt: engine.now))
        try expectSame(&engine, .cancelAllTaskRequests(bundleId: app)) { try $0.cancelAllTaskRequests(app) }
        try expectSame(&engine, .setFetchInterval(bundleId: app, .minimum)) { try $0.setFetchInterval(app, .minimum) }
    }

    @Test func backgroundTaskCommandsAreTheEngineCalls() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.background(app)
        let begun = try expectSame(&engine, .beginBackgroundTask(bundleId: app, name: "upload")) {
            _ = try $0.beginBackgroundTask(app, name: "upload")
        }
        let task = try #require(begun.backgroundTask)
        #expect(!begun.backgroundTaskInvalid)
        try engine.beginBackgroundTask(app, name: "other")
        try expectSame(&engine, .endBackgroundTask(bundleId: app, .latestOpen(taskId: nil, name: "upload"))) {
            try $0.endBackgroundTask(app, taskId: task.id)
        }
        #expect(throws: EmulationError.conflict(code: "noOpenTask", detail: "\(app) has no open background task to end.")) {
            try engine.apply(.endBackgroundTask(bundleId: app, .latestOpen(taskId: nil, name: "upload")))
        }

        // R14: without multitasking, beginBackgroundTask answers UIBackgroundTaskInvalid.
        var single = EngineFixture.engine(multitasking: false)
        try single.launch(app)
        let invalid = try expectSame(&single, .beginBackgroundTask(bundleId: app, name: nil)) {
            _ = try $0.beginBackgroundTask(app, name: nil)
        }
        #expect(invalid.backgroundTask == nil)
        #expect(invalid.backgroundTaskInvalid)
    }

    @Test func deviceCommandsChangeConditionsAndPolicyAsTheEngineCalls() throws {
        var engine = EngineFixture.engine()
        let change = ConditionsChange(batteryLevel: 15, charging: true, network: "cellular")
        try expectSame(&engine, .setConditions(change)) { engine in
            var conditions = engine.device.conditions
            conditions.batteryLevel = 15
            conditions.charging = true
            conditions.network = .cellular
            engine.setConditions(conditions)
        }
        #expect(throws: EmulationError.invalid([
            FieldIssue("batteryLevel", "must be an integer from 0 to 100"), FieldIssue("network", "must be one of wifi, cellular, none"),
        ])) {
            try engine.apply(.setConditions(ConditionsChange(batteryLevel: 101, network: "5g")))
        }
        try expectSame(&engine, .patchDevice(name: "renamed", policy: ["backgroundTaskAllowance": 60, "expirationWarning": 2])) {
            $0.rename("renamed")
            $0.setPolicyOverrides(["backgroundTaskAllowance": 60, "expirationWarning": 2])
        }
        try expectSame(&engine, .patchDevice(name: nil, policy: ["expirationWarning": nil])) {
            $0.setPolicyOverrides(["backgroundTaskAllowance": 60])
        }
        #expect(throws: EmulationError.invalid([FieldIssue("policy.expirationWarning", "must be from 0 to 60 (seconds)")])) {
            try engine.apply(.patchDevice(name: nil, policy: ["expirationWarning": 61]))
        }
        try expectSame(&engine, .moveDevice(latitude: 48.85, longitude: 2.35)) {
            _ = try $0.moveDevice(latitude: 48.85, longitude: 2.35)
        }
    }

    @Test func appCommandsInstallAndSetAsTheEngineCalls() throws {
        var engine = EngineFixture.engine()
        let news = AppInstallation(bundleId: "com.example.news", backgroundModes: ["fetch"], permittedIdentifiers: [])
        let installed = try expectSame(&engine, .install(news, behavior: nil, maximumApps: 10)) {
            try $0.install(try news.validated(installedAt: $0.now))
        }
        #expect(installed.app?.bundleId == "com.example.news")
        let third = AppInstallation(bundleId: "com.example.third")
        #expect(throws: EmulationError.conflict(code: "tooManyApps", detail: "A device holds at most 2 apps.")) {
            try engine.apply(.install(third, behavior: nil, maximumApps: 2))
        }
        let settings = try expectSame(&engine, .updateSettings(bundleId: app, backgroundAppRefresh: false)) { engine in
            var settings = engine.device.app(app)!.settings
            settings.backgroundAppRefresh = false
            try engine.setAppSettings(app, settings)
        }
        #expect(settings.settings?.backgroundAppRefresh == false)
        try expectSame(&engine, .setBackgroundModes(bundleId: app, [.fetch])) { try $0.setBackgroundModes(app, [.fetch]) }
        try expectSame(&engine, .uninstall(bundleId: "com.example.news")) { try $0.uninstall("com.example.news") }
    }

    @Test func pushCommandIsReceivePushAndThrowsItsRejection() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(modes: [.fetch, .remoteNotification])])
        try engine.launch(app)
        try engine.background(app)
        let request = PushRuleTests.request()
        let delivered = try expectSame(&engine, .push(request)) { _ = try $0.receivePush(request) }
        #expect(delivered.push?.apnsId == request.apnsId)
        #expect(throws: PushRejection.self) {
            try engine.apply(.push(PushRuleTests.request(topic: "com.example.unknown")))
        }
    }

    @Test func notificationCommandSchedulesFromTheEnginesNow() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.advance(seconds: 30)
        let draft = NotificationDraft(identifier: "n1", timeInterval: 600, title: "Rain")
        let scheduled = try expectSame(&engine, .scheduleNotification(bundleId: app, draft)) { engine in
            try engine.scheduleNotification(app, LocalNotification(
                identifier: "n1", fireDate: engine.now + .seconds(600), timeInterval: .seconds(600), title: "Rain",
                scheduledAt: engine.now))
        }
        #expect(scheduled.notification?.fireDate == engine.now + .seconds(600))
        try expectSame(&engine, .cancelNotification(bundleId: app, identifier: "n1")) { try $0.cancelNotification(app, identifier: "n1") }
    }

    @Test func urlSessionCommandsAreTheEngineCalls() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        let made = try expectSame(&engine, .makeURLSession(bundleId: app, identifier: "bg", discretionary: false, sendsLaunchEvents: true)) {
            _ = try $0.makeURLSession(app, identifier: "bg", discretionary: false, sendsLaunchEvents: true)
        }
        #expect(made.sessionCreated == true)
        let draft = TransferDraft(kind: .download, bytes: 5_000_000, earliestBeginDate: .after(.seconds(120)))
        let enqueued = try expectSame(&engine, .enqueueTransfer(bundleId: app, session: "bg", draft)) {
            _ = try $0.enqueueTransfer(app, session: "bg", kind: .download, bytes: 5_000_000, earliestBeginDate: $0.now + .seconds(120))
        }
        let transfer = try #require(enqueued.transfer)
        let cancelled = try expectSame(&engine, .cancelTransfer(bundleId: app, transferId: transfer.id)) {
            _ = try $0.cancelTransfer(app, transferId: transfer.id)
        }
        #expect(cancelled.transfer?.id == transfer.id)
    }

    @Test func activityCommandIsSetActivity() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(modes: [.audio])])
        try engine.launch(app)
        let outcome = try expectSame(&engine, .setActivity(bundleId: app, .audio, active: true, keepAliveInterval: nil)) {
            _ = try $0.setActivity(app, .audio, active: true)
        }
        #expect(outcome.activity?.keepsAppRunning == true)
    }
}
