import BGEmuKit
import Foundation
import Testing

/// An app's own code, written with Apple's names, run by BGEmuKit against the real executable on a loopback port:
/// a real project's Info.plist (VLC's), its launch registering handlers, virtual time advanced, the answers on the
/// service right after each harness call.
@Suite(.serialized) struct BGEmuKitEndToEndTests {
    static let key = "bgemukit-e2e-key-0123456789"
    static let bundleId = "org.videolan.vlc-ios"
    static let refresh = "org.videolan.vlc-ios.podcast-refresh"
    static let download = "org.videolan.vlc-ios.podcast-download"

    static var plist: URL { CommandLineRunner.fixtures.appendingPathComponent("RealProjects/vlc-ios-Info.plist") }

    func start() throws -> LiveService {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        return service
    }

    func device(_ service: LiveService, policy: [String: Double] = [:]) async throws -> EmulatedDevice {
        try await EmulatedDevice.create(
            server: URL(string: "http://127.0.0.1:\(service.port)")!, apiKey: Self.key, osVersion: "17.0", policy: policy)
    }

    /// VLC's refresh, as its code would be: register at launch, submit 15 minutes ahead, and in the handler
    /// complete and submit the next one.
    static func scheduleRefresh() throws {
        let request = BGAppRefreshTaskRequest(identifier: refresh)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        try BGTaskScheduler.shared.submit(request)
    }

    /// Launches VLC registering a refresh handler that completes at once and resubmits; answers the handler's calls.
    func launchRefreshingApp(_ device: EmulatedDevice) async throws -> (EmulatedApp, Recorded<String>) {
        let app = try await device.install(infoPlist: Self.plist, bundleId: Self.bundleId)
        let handled = Recorded<String>()
        try await app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
                handled.append(task.identifier)
                task.expirationHandler = { handled.append("expired") }
                do { try Self.scheduleRefresh() } catch { handled.append("resubmit failed: \(error)") }
                task.setTaskCompleted(success: true)
            }
            try Self.scheduleRefresh()
        }
        return (app, handled)
    }

    func api(_ service: LiveService, _ device: EmulatedDevice, _ path: String) throws -> [String: Any] {
        try service.client(key: Self.key).request("GET", "/v1/devices/\(device.id)/apps/\(Self.bundleId)\(path)").json
    }

    @Test func R20_R21_R23_theRefreshHandlerRunsCompletesAndReschedules() async throws {
        let service = try start()
        defer { service.stop() }
        let device = try await device(service)
        let (app, handled) = try await launchRefreshingApp(device)
        #expect(app.permittedIdentifiers == [Self.refresh, Self.download])
        #expect(app.registeredIdentifiers == [Self.refresh])
        try await app.moveToBackground()
        try await device.advanceClock(by: 3600)

        #expect(handled.all.first == Self.refresh)
        #expect(!handled.all.contains("expired"))
        #expect(!handled.all.contains { $0.hasPrefix("resubmit failed") }, "\(handled.all)")
        let runs = try api(service, device, "/runs")["items"] as? [[String: Any]] ?? []
        let first = try #require(runs.first)
        #expect(first["kind"] as? String == "appRefresh" && first["state"] as? String == "completed")
        #expect(first["result"] as? String == "success")
        // Completed at once, at the instant it started: well within its 30 s (R20).
        #expect(first["startedAt"] as? String == first["endedAt"] as? String)
        let pending = try api(service, device, "/task-requests")["items"] as? [[String: Any]] ?? []
        #expect(pending.map { $0["identifier"] as? String } == [Self.refresh])
        #expect(app.terminations.isEmpty)
    }

    @Test func R22_aHandlerThatNeverCompletesSeesItsExpirationHandlerAndTheWatchdogEndsTheApp() async throws {
        let service = try start()
        defer { service.stop() }
        let device = try await device(service)
        let app = try await device.install(infoPlist: Self.plist, bundleId: Self.bundleId)
        let handled = Recorded<String>()
        try await app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
                handled.append("started")
                task.expirationHandler = { handled.append("expired at \(EmulatedDevice.currentDate.map(VirtualClock.text) ?? "?")") }
            }
            try Self.scheduleRefresh()
        }
        try await app.moveToBackground()
        try await device.advanceClock(by: 3600)
        #expect(handled.all.count == 2 && handled.all.first == "started", "\(handled.all)")
        let runs = try api(service, device, "/runs")["items"] as? [[String: Any]] ?? []
        let run = try #require(runs.first)
        #expect(run["state"] as? String == "expired" && run["result"] as? String == "failure")
        #expect(handled.all.last == "expired at \(run["deadline"] as? String ?? "")")
        #expect(app.terminations.map(\.reason) == ["watchdog"])
        #expect(app.terminations.first?.terminationCode == "0x8badf00d")
    }

    @Test func R18_inLowPowerModeSubmitThrowsUnavailable() async throws {
        let service = try start()
        defer { service.stop() }
        let device = try await device(service)
        try await device.setConditions(lowPowerMode: true)
        let app = try await device.install(infoPlist: Self.plist, bundleId: Self.bundleId)
        let thrown = Recorded<String>()
        try await app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { _ in }
            do { try Self.scheduleRefresh() } catch BGTaskScheduler.Error.unavailable { thrown.append("unavailable") }
        }
        #expect(thrown.all == ["unavailable"])
        let events = try await device.recordedEvents()
        #expect(events.contains { $0.type == .taskRequestRejected && $0.string("code") == "unavailable" })
    }

    @Test func R15_anUnpermittedIdentifierThrowsNotPermittedAndCannotBeRegistered() async throws {
        let service = try start()
        defer { service.stop() }
        let device = try await device(service)
        let app = try await device.install(infoPlist: Self.plist, bundleId: Self.bundleId)
        let answers = Recorded<String>()
        try await app.launch {
            let registered = BGTaskScheduler.shared.register(forTaskWithIdentifier: "org.videolan.vlc-ios.sync", using: nil) { _ in }
            answers.append("registered \(registered)")
            do {
                try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "org.videolan.vlc-ios.sync"))
            } catch let error as BGTaskScheduler.Error where error.code == .notPermitted {
                answers.append("notPermitted")
            }
        }
        #expect(answers.all == ["registered false", "notPermitted"])
        // A registration after the launch is refused as on iOS.
        let late = try await app.run {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.download, using: nil) { _ in }
        }
        #expect(!late)
    }

    @Test func R9_R11_R13_aBackgroundTasksExpirationHandlerFiresAtTheAllowanceAndEndingItSuspendsTheApp() async throws {
        let service = try start()
        defer { service.stop() }
        let device = try await device(service)
        let app = try await device.install(infoPlist: Self.plist, bundleId: Self.bundleId)
        let delegate = SavingDelegate()
        app.delegate = delegate
        try await app.launch {}
        let leftAt = try await device.now
        try await app.moveToBackground()
        #expect(delegate.log.all.first?.hasPrefix("began") == true, "\(delegate.log.all)")
        try await device.advanceClock(by: 120)
        // ios13: the allowance is 30 s and the warning comes 5 s before it ends (R9, R11).
        let expected = VirtualClock.text(leftAt.addingTimeInterval(25))
        #expect(delegate.log.all.dropFirst().first == "expiring at \(expected), 5 s left", "\(delegate.log.all)")
        #expect(app.terminations.isEmpty)
        let events = try await device.recordedEvents()
        #expect(events.contains { $0.type == .backgroundTaskEnded && $0.string("reason") == "ended" })
        let state = try api(service, device, "")["state"] as? String
        #expect(state == "suspended")
    }

    @Test func R3_R16_theSystemLaunchesTheTerminatedAppAndItsLaunchClosureRegistersAgain() async throws {
        let service = try start()
        defer { service.stop() }
        let device = try await device(service)
        let app = try await device.install(infoPlist: Self.plist, bundleId: Self.bundleId)
        let log = Recorded<String>()
        try await app.launch {
            log.append("launch")
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
                log.append("refresh \(UIApplication.shared.applicationState == .background)")
                task.setTaskCompleted(success: true)
            }
            if log.all.count == 1 { try Self.scheduleRefresh() }
        }
        try await app.moveToBackground()
        try await app.terminate()
        #expect(app.terminations.map(\.reason) == ["memoryPressure"])
        #expect(app.registeredIdentifiers.isEmpty)
        try await device.advanceClock(by: 3600)
        #expect(log.all == ["launch", "launch", "refresh true"])
        let runs = try api(service, device, "/runs")["items"] as? [[String: Any]] ?? []
        #expect(runs.first?["launchedApp"] as? Bool == true && runs.first?["result"] as? String == "success")
    }

    @Test func R16_submittingAnIdentifierRegisteredWithNoHandlerCrashesTheApp() async throws {
        let service = try start()
        defer { service.stop() }
        let device = try await device(service)
        let app = try await device.install(infoPlist: Self.plist, bundleId: Self.bundleId)
        let thrown = Recorded<String>()
        try await app.launch {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { _ in }
            do {
                try BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: Self.download))
            } catch BGEmuError.appCrashed(let reason) {
                thrown.append(reason)
            }
        }
        #expect(thrown.all.first?.contains("No launch handler registered for task with identifier \(Self.download)") == true)
        #expect(app.terminations.map(\.reason) == ["crash"])
    }

    @Test func R28_R31_aFetchAndASilentPushReachTheDelegateAndItsCompletionEndsTheirRuns() async throws {
        let service = try start()
        defer { service.stop() }
        let device = try await device(service)
        let app = try await device.install(
            bundleId: "com.example.weather", backgroundModes: ["fetch", "remote-notification"])
        let delegate = WeatherDelegate()
        try await app.launch {
            UIApplication.shared.delegate = delegate
            UIApplication.shared.setMinimumBackgroundFetchInterval(UIApplication.backgroundFetchIntervalMinimum)
        }
        try await app.moveToBackground()
        try await device.advanceClock(by: 3600)
        #expect(delegate.log.all.first == "fetch", "\(delegate.log.all)")
        try await device.push(["aps": ["content-available": 1], "city": "Lyon"], to: app)
        #expect(delegate.log.all.last == "push Lyon", "\(delegate.log.all)")
        let runs = try service.client(key: Self.key).request("GET", "/v1/devices/\(device.id)/apps/com.example.weather/runs").json
        let items = runs["items"] as? [[String: Any]] ?? []
        #expect(items.first?["kind"] as? String == "fetch" && items.first?["result"] as? String == "newData")
        #expect(items.last?["kind"] as? String == "remoteNotification" && items.last?["result"] as? String == "noData")
        #expect(items.allSatisfy { $0["state"] as? String == "completed" })
    }

    @Test func determinism_theSameTestGivesTheSameEventsRunAfterRun() async throws {
        var sequences: [[String]] = []
        for _ in 0..<2 {
            let service = try start()
            defer { service.stop() }
            let device = try await device(service)
            let (app, _) = try await launchRefreshingApp(device)
            try await app.moveToBackground()
            try await device.advanceClock(by: 3 * 3600)
            let events = try await device.recordedEvents()
            sequences.append(events.map { "\($0.type) \($0.bundleId ?? "-") \(VirtualClock.text($0.at))" })
            // The live stream carries the same events as the page read.
            var streamed: [DeviceEvent] = []
            for try await event in device.events {
                streamed.append(event)
                if streamed.count == events.count { break }
            }
            #expect(streamed == events)
        }
        #expect(sequences[0].count > 10)
        #expect(sequences[0] == sequences[1])
    }
}

/// A delegate that begins a background task on entering the background to save its state, and ends it in the
/// expiration handler.
final class SavingDelegate: UIApplicationDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in a `Recorded`.
    let log = Recorded<String>()
    let task = Recorded<UIBackgroundTaskIdentifier>()

    func applicationDidEnterBackground(_ application: UIApplication) {
        let id = application.beginBackgroundTask(withName: "save") { [log, task] in
            let remaining = Int(UIApplication.shared.backgroundTimeRemaining.rounded())
            log.append("expiring at \(EmulatedDevice.currentDate.map(VirtualClock.text) ?? "?"), \(remaining) s left")
            if let id = task.all.first { UIApplication.shared.endBackgroundTask(id) }
        }
        task.append(id)
        log.append("began \(id.rawValue)")
    }
}

/// A weather app's delegate: a fetch answers new data, a silent push reads its city and answers no data.
final class WeatherDelegate: UIApplicationDelegate, @unchecked Sendable {
    // @unchecked Sendable: its state is in a `Recorded`.
    let log = Recorded<String>()

    func application(
        _ application: UIApplication, performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        log.append("fetch")
        completionHandler(.newData)
    }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        log.append("push \(userInfo["city"] as? String ?? "?")")
        completionHandler(.noData)
    }
}

/// Values app code records from its handlers, read by the test.
final class Recorded<Value>: @unchecked Sendable {
    // @unchecked Sendable: `values` is behind `lock`.
    private let lock = NSLock()
    private var values: [Value] = []
    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
}

enum VirtualClock {
    /// As the service writes instants (to the nearest millisecond).
    static func text(_ date: Date) -> String {
        let rounded = Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000 + 0.0001)
        return rounded.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
