import BGEmuClient
import Foundation

/// A virtual iOS device on a running bgemu, and the harness that runs an app's own code on it: every call that
/// changes the device returns once the callbacks of everything it caused have run and their answers
/// (completions, `endBackgroundTask`, new submits) have reached the service, so a test can assert right after it.
/// Each callback is a turn of its app: the harness waits for the blocks it left on the main queue and on its launch
/// handlers' queues before it lets the device suspend the app (see ``EmulatedApp``).
///
/// The harness reads the device's events (`GET …/events?after=`) after each call and dispatches them in order,
/// one harness call at a time per device, on the caller's actor (a `@MainActor` test runs the app's code on the
/// main actor, as iOS does): every harness call takes the caller's isolation (`#isolation`), so that closures and
/// delegates need not be `Sendable`. A call blocks its thread while it talks to the service (on loopback,
/// milliseconds). App code that answers later on another thread
/// reaches the service when it answers; what that causes is dispatched at the next harness call. While such code
/// is still at work, ``advanceClock(by:isolation:)`` and ``settle(timeout:isolation:)`` let the device's clock follow
/// real time rather than jump past it (co-simulated time, bounded by ``realTimeBudget``).
///
/// `@unchecked Sendable`: the harness state (`apps`, `lastSeen`, `failure`) is behind `lock`.
public final class EmulatedDevice: @unchecked Sendable {
    /// The device's id at the service (`dev_…`).
    public var id: String { service.deviceId }
    let service: any RemoteDevice
    /// The client of the service for the live event stream; nil for a device on a fake service.
    let streamClient: APIClient?
    /// Held for the whole of a harness call.
    let gate = AsyncGate()
    private let stateLock = NSLock()
    private var apps: [String: EmulatedApp] = [:]
    private var lastSeen: Int64 = 0
    private var failure: (any Error)?
    private var pushCount = 0
    private var budget: Duration = .seconds(2)
    private var step = EmulatedDevice.defaultRealTimeStep
    private var follower: RealTimeFollower?

    package init(service: any RemoteDevice, streamClient: APIClient? = nil) throws {
        self.service = service
        self.streamClient = streamClient
        lastSeen = try service.events(after: 0).last?.id ?? 0
        if let file = VirtualDateFile.shared { file.write(try service.clockNow()) }
    }

    /// How long, in real time, the harness follows real time for app code that stays busy without completing
    /// (2 seconds unless set). While an app's code is at work — a run whose completion it has not called, a
    /// background task it has not ended — the device's clock follows real time, so that a handler that completes
    /// after a real network answer completes within its run's time, as on a phone. Past this budget the harness
    /// stops waiting for it and the clock jumps again, so that a handler that never completes still sees its
    /// expiration handler and the watchdog at their virtual instants (the expiration handler gets a budget of its
    /// own). `.zero` turns co-simulated time off: every advance jumps, whatever app code still holds.
    public var realTimeBudget: Duration {
        get { stateLock.withLock { budget } }
        set { stateLock.withLock { budget = max(newValue, .zero) } }
    }

    /// The real time between two steps of a clock that follows real time (20 ms unless set).
    var realTimeStep: Duration {
        get { stateLock.withLock { step } }
        set { stateLock.withLock { step = max(newValue, .milliseconds(1)) } }
    }

    /// The follower of real time of the harness call under way, while the clock may follow real time.
    var currentFollower: RealTimeFollower? {
        get { stateLock.withLock { follower } }
        set { stateLock.withLock { follower = newValue } }
    }

    /// The apps installed through this device.
    var installedApps: [EmulatedApp] { stateLock.withLock { Array(apps.values) } }

    /// Creates a device on the service at `server` (default: the environment's `BGEMU_URL`) with `apiKey`
    /// (default: `BGEMU_API_KEY`). Its clock is manual and starts at `2026-01-01T00:00:00Z`, and its random
    /// generator is seeded with `seed`, so that the same test gives the same events run after run. `policy`
    /// overrides the profile's constants by name (`["backgroundTaskAllowance": 3]`).
    public static func create(
        server: URL? = nil, apiKey: String? = nil, osVersion: String = "17.0", name: String = "BGEmuKit",
        seed: UInt64 = 1, policy: [String: Double] = [:]
    ) async throws -> EmulatedDevice {
        let environment = ProcessInfo.processInfo.environment
        guard let base = server?.absoluteString ?? environment["BGEMU_URL"] else {
            throw BGEmuError.notConfigured("pass server: or set BGEMU_URL")
        }
        guard let key = apiKey ?? environment["BGEMU_API_KEY"] else {
            throw BGEmuError.notConfigured("pass apiKey: or set BGEMU_API_KEY")
        }
        let client: APIClient
        do { client = try APIClient(server: base, apiKey: key, timeout: 300) } catch { throw BGEmuError.transport("\(error)") }
        let draft = DeviceDraft(name: name, osVersion: osVersion, seed: seed, policy: policy)
        let service = try HTTPRemoteDevice.createDevice(client: client, draft)
        return try EmulatedDevice(service: service, streamClient: client)
    }

    /// Installs the app described by a real `Info.plist` (XML or binary); `bundleId` sets
    /// `PRODUCT_BUNDLE_IDENTIFIER`, which real projects' plists refer to. The app registers no launch handler
    /// until its ``EmulatedApp/launch(_:)``.
    public func install(
        infoPlist: URL, bundleId: String, isolation: isolated (any Actor)? = #isolation
    ) async throws -> EmulatedApp {
        let data: Data
        do { data = try Data(contentsOf: infoPlist) } catch { throw BGEmuError.notConfigured("cannot read \(infoPlist.path)") }
        return try await perform { try add(service.install(.infoPlist(data, bundleId: bundleId))) }
    }

    /// Installs an app declared by the keys bgemu reads of an `Info.plist`.
    public func install(
        bundleId: String, backgroundModes: [String], permittedIdentifiers: [String] = [], isolation: isolated (any Actor)? = #isolation
    ) async throws -> EmulatedApp {
        try await perform {
            try add(service.install(.declared(bundleId: bundleId, backgroundModes: backgroundModes, permittedIdentifiers: permittedIdentifiers)))
        }
    }

    private func add(_ installed: InstalledApp) -> EmulatedApp {
        let app = EmulatedApp(device: self, installed: installed)
        stateLock.withLock { apps[installed.bundleId] = app }
        return app
    }

    /// Lets `seconds` of virtual time pass. The clock stops at every instant at which an app's code runs (a run
    /// starts or expires, a background task expires, a delegate callback is made); the harness runs that code
    /// and sends its answers, then lets time go on: a launch handler that completes at once completes within
    /// the run's time, as on a phone. While app code is still at work (a completion not called yet, a background
    /// task open), the clock follows real time, in small steps, instead of jumping (see ``realTimeBudget``).
    /// Returns at the target once every app is idle — or once what keeps one busy has outlasted the budget; the
    /// clock does not pass the target while it waits.
    public func advanceClock(by seconds: TimeInterval, isolation: isolated (any Actor)? = #isolation) async throws {
        // `isolation` passed on: the closure is a nonisolated async one, where `#isolation` is nil (it runs on the
        // global executor), and the app code that coSimulate dispatches would leave the caller's actor.
        try await perform { try await coSimulate(by: seconds, isolation: isolation) }
    }

    /// Changes the device's conditions; each left nil keeps its value. Low Power Mode or Background App Refresh off
    /// make `submit` throw `.unavailable` (R18). The device's apps get the notifications iOS posts for the change
    /// (`NSProcessInfoPowerStateDidChange`, …; see ``UIApplication/backgroundRefreshStatus``).
    public func setConditions(
        batteryLevel: Int? = nil, charging: Bool? = nil, lowPowerMode: Bool? = nil, network: String? = nil,
        backgroundAppRefresh: Bool? = nil, locked: Bool? = nil, userActive: Bool? = nil, isolation: isolated (any Actor)? = #isolation
    ) async throws {
        var patch: [String: JSONValue] = [:]
        if let batteryLevel { patch["batteryLevel"] = .number(Double(batteryLevel)) }
        if let charging { patch["charging"] = .bool(charging) }
        if let lowPowerMode { patch["lowPowerMode"] = .bool(lowPowerMode) }
        if let network { patch["network"] = .string(network) }
        if let backgroundAppRefresh { patch["backgroundAppRefresh"] = .bool(backgroundAppRefresh) }
        if let locked { patch["locked"] = .bool(locked) }
        if let userActive { patch["userActive"] = .bool(userActive) }
        try await perform { try service.setConditions(patch) }
    }

    /// The device's virtual now.
    public var now: Date {
        get async throws { try await perform { try service.clockNow() } }
    }

    /// The virtual now of the device whose app's code is running on this task; nil outside the app's code. For
    /// app code that needs the device's time rather than the wall clock's.
    public static var currentDate: Date? {
        guard let app = AppContext.current else { return nil }
        return app.attempt { try app.service.clockNow() }
    }

    /// Sends a push to `app` as APNs would deliver it (`POST …/push`, R29–R31): `payload` is the APNs payload
    /// (`["aps": ["content-available": 1], "article": 42]`). A silent push to an app in the background wakes it
    /// with a `remoteNotification` run (`application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`,
    /// with `payload` as `userInfo`); one to an app in the foreground calls the same method at once. Refused
    /// pushes throw ``BGEmuError/problem(_:)`` with APNs's reason as the code. Its `apns-id` counts up per
    /// device, so that runs of a test stay the same.
    public func push(_ payload: [String: Any], to app: EmulatedApp, isolation: isolated (any Actor)? = #isolation) async throws {
        let bytes: [UInt8]
        do { bytes = Array(try JSONSerialization.data(withJSONObject: payload)) } catch {
            throw BGEmuError.notConfigured("the payload is not JSON: \(error)")
        }
        let apnsId = stateLock.withLock { () -> String in
            pushCount += 1
            return String(format: "00000000-0000-4000-8000-%012d", pushCount)
        }
        let userInfo = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [AnyHashable: Any] ?? [:]
        app.lock.withLock { app.payloads[apnsId] = userInfo }
        try await perform { try service.push(bytes, topic: app.bundleId, apnsId: apnsId) }
    }

    /// Every event the device recorded so far, oldest first (a page read, for assertions).
    public func recordedEvents(isolation: isolated (any Actor)? = #isolation) async throws -> [DeviceEvent] {
        try await perform { try service.events(after: 0) }
    }

    // MARK: - The harness's loop

    /// Runs one harness call: `work` (a turn of `app` when it runs that app's code), then every event it caused,
    /// dispatched in order until none is left; then throws what the app's code could not report (a service that
    /// could not be reached).
    func perform<T>(
        isolation: isolated (any Actor)? = #isolation, turnOf app: EmulatedApp? = nil, _ work: nonisolated(nonsending) () async throws -> T
    ) async throws -> T {
        await gate.enter()
        ProcessBinding.shared.enter(self)
        defer {
            ProcessBinding.shared.leave(self)
            gate.leave()
        }
        app?.openTurn()
        let outcome: Result<T, any Error>
        do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
        for installed in installedApps { await installed.postKept() }
        await app?.closeTurn()
        try await drain()
        if case .failure(let error) = outcome { throw (error as? ServiceProblem).map(BGEmuError.problem) ?? error }
        if let failure = stateLock.withLock({ () -> (any Error)? in defer { self.failure = nil }; return self.failure }) {
            throw failure
        }
        return try outcome.get()
    }

    /// Reads the events after the last one seen and dispatches each as a turn of its app (a device-level event as
    /// a turn of each app), until the service has none left.
    func drain(isolation: isolated (any Actor)? = #isolation) async throws {
        while true {
            let after = stateLock.withLock { lastSeen }
            let events = try service.events(after: after)
            guard !events.isEmpty else { return }
            for event in events {
                stateLock.withLock { lastSeen = max(lastSeen, event.id) }
                // A device-level event (no `bundleId`: `device.conditionsChanged`) reaches every app, by bundle id.
                let targets = stateLock.withLock { () -> [EmulatedApp] in
                    guard let bundleId = event.bundleId else { return apps.keys.sorted().compactMap { apps[$0] } }
                    return apps[bundleId].map { [$0] } ?? []
                }
                for app in targets {
                    app.trackBusy(event)
                    app.openTurn()
                    if let (queue, call) = app.dispatch(event) { await queue.run(call) }
                    await app.postKept()
                    await app.closeTurn()
                    app.trackBusy(after: event)
                }
            }
        }
    }

    /// Keeps the first failure of app code that cannot throw, for the harness call to throw.
    func keepFailure(_ error: any Error) {
        stateLock.withLock { if failure == nil { failure = error } }
    }
}
