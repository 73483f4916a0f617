import Testing
@testable import Emulation

/// R40: local notifications.
struct NotificationRuleTests {
    let app = EngineFixture.weather

    func notification(_ identifier: String, in seconds: Double, from engine: DeviceEngine, repeats: Bool = false)
        -> LocalNotification
    {
        LocalNotification(
            identifier: identifier, fireDate: engine.now + .seconds(seconds),
            timeInterval: repeats ? .seconds(seconds) : nil, repeats: repeats, title: "t", body: identifier,
            scheduledAt: engine.now)
    }

    @Test(arguments: ["active", "suspended", "notRunning", "forceQuit"])
    func R40_firesAtItsDateWhateverTheAppsState(state: String) throws {
        var engine = EngineFixture.engine()
        switch state {
        case "active": try engine.launch(app)
        case "suspended":
            try engine.launch(app)
            try engine.background(app)
        case "forceQuit": try engine.forceQuit(app)
        default: break
        }
        try engine.scheduleNotification(app, notification("n1", in: 600, from: engine))
        try engine.advance(seconds: 599)
        #expect(engine.events(.notificationDelivered).isEmpty)
        try engine.advance(seconds: 1)
        let delivered = try #require(engine.events(.notificationDelivered).first)
        #expect(delivered.data["source"] == "local" && delivered.data["identifier"] == "n1")
        #expect(engine.app().runtime.notifications?.isEmpty == true)
    }

    @Test(arguments: ["terminate", "forceQuit", "reboot"])
    func R40_aScheduledNotificationOutlivesTheAppsProcess(end: String) throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.scheduleNotification(app, notification("n1", in: 600, from: engine))
        try engine.background(app)
        try engine.advance(seconds: 10)
        switch end {
        case "terminate": try engine.terminate(app)
        case "forceQuit": try engine.forceQuit(app)
        default: engine.reboot()
        }
        #expect(engine.app().state == .notRunning)
        try engine.advance(seconds: 600)
        #expect(engine.events(.notificationDelivered).first?.data["identifier"] == "n1")
    }

    @Test func R40_theSameIdentifierReplaces() throws {
        var engine = EngineFixture.engine()
        try engine.scheduleNotification(app, notification("n1", in: 600, from: engine))
        try engine.scheduleNotification(app, notification("n1", in: 1200, from: engine))
        try engine.advance(seconds: 900)
        #expect(engine.events(.notificationDelivered).isEmpty)
        try engine.advance(seconds: 300)
        #expect(engine.events(.notificationDelivered).count == 1)
    }

    @Test func R40_overTheLimitTheSoonestAreKept() throws {
        var engine = EngineFixture.engine()
        for n in 1...64 { try engine.scheduleNotification(app, notification("n\(n)", in: Double(n) * 60 + 60, from: engine)) }
        try engine.scheduleNotification(app, notification("soon", in: 30, from: engine))
        try engine.scheduleNotification(app, notification("late", in: 86_400, from: engine))
        let pending = engine.app().runtime.notifications ?? []
        #expect(pending.count == 64 && pending.first?.identifier == "soon")
        #expect(engine.events(.notificationDropped).map { $0.data["identifier"] } == ["n64", "late"])
        try engine.advance(seconds: 86_400)
        #expect(engine.events(.notificationDelivered).count == 64)
    }

    @Test func R40_iOS4To6KeepsOneHundredTwentyEight() {
        #expect(EngineFixture.engine(os: "6.1").device.policy.pendingNotificationLimit == 128)
    }

    @Test func R40_aRepeatingNotificationFiresAgain() throws {
        var engine = EngineFixture.engine()
        try engine.scheduleNotification(app, notification("r", in: 3600, from: engine, repeats: true))
        try engine.advance(seconds: 3 * 3600)
        #expect(engine.events(.notificationDelivered).map(engine.seconds(of:)) == [3600, 7200, 10_800])
        #expect(engine.app().runtime.notifications?.count == 1)
        try engine.cancelNotification(app, identifier: "r")
        try engine.advance(seconds: 3600)
        #expect(engine.events(.notificationDelivered).count == 3)
    }

    @Test func R40_aRepeatingIntervalUnderAMinuteIsRefused() {
        var engine = EngineFixture.engine()
        #expect(throws: EmulationError.self) {
            try engine.scheduleNotification(app, notification("r", in: 30, from: engine, repeats: true))
        }
    }
}
