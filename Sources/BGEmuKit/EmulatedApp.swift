import Foundation

/// An app installed on an ``EmulatedDevice`` whose code is the test's: its launch closure, the launch handlers it
/// registers, its delegate. The harness calls them when the device's events say so, with `BGTaskScheduler.shared`
/// and `UIApplication.shared` bound to this app (see ``bind(_:)`` for code the harness does not call).
///
/// `@unchecked Sendable`: its mutable state is behind `lock`, which is never held while app code or the service
/// is called; the app's code runs on the harness's thread (a launch handler on the queue it was registered with,
/// the harness waiting for it), one harness call at a time per device.
public final class EmulatedApp: @unchecked Sendable {
    /// Why and when the app ended (an `app.terminated` event).
    public struct Termination: Sendable, Equatable {
        /// `forceQuit`, `memoryPressure`, `watchdog`, `crash`, `exitsOnSuspend`, `reboot`, …
        public var reason: String
        /// The watchdog's code (`0x8badf00d`) when it killed the app.
        public var terminationCode: String?
        /// The device's virtual time.
        public var at: Date
    }

    /// The bundle identifier.
    public let bundleId: String
    /// `BGTaskSchedulerPermittedIdentifiers`, as the service read them (build settings expanded).
    public let permittedIdentifiers: [String]
    /// `UIBackgroundModes`, as the service read them.
    public let backgroundModes: [String]
    let device: EmulatedDevice

    let lock = NSLock()
    var launchClosure: (() throws -> Void)?
    var appDelegate: (any UIApplicationDelegate)?
    var appSceneDelegate: (any UISceneDelegate)?
    /// The window scene connected at the user's launch, for an app with a scene delegate.
    var scene: UIWindowScene?
    var handlers: [String: (queue: DispatchQueue?, body: (BGTask) -> Void)] = [:]
    /// The queues launch handlers were registered with: a turn waits for them too.
    var handlerQueues: [DispatchQueue] = []
    /// How deep the harness's turns of this app are nested (0: none runs).
    var turnDepth = 0
    /// What the current turn keeps for its end (completions, ended background tasks).
    var releases: [() -> Void] = []
    /// Completions called outside a turn, sent once the code that called them has returned.
    var outsideReleases: [() -> Void] = []
    /// How many times the sending of `outsideReleases` waited again for the app's calls to end.
    var outsideWaits = 0
    /// The app code's calls of the service under way now (``attempt(_:)``), and when the last one ended.
    var callsInFlight = 0
    var lastCallEnded: ContinuousClock.Instant?
    /// What of the app's code is still at work, for co-simulated time.
    let busy = BusyLedger()
    /// Set when the delegate's default implementation, not the app's code, received a run's completion handler.
    var declinedCompletion = false
    /// Counts the app code's calls of its API, to wait again for queues that work may have filled.
    var activity = 0
    var registered: [String] = []
    var tasks: [String: BGTask] = [:]
    var state = "notRunning"
    var endings: [Termination] = []
    /// Set while the launch closure runs.
    var launching = false
    /// Notifications posted on the main queue that the harness makes right after the turn (``NotificationPosting``).
    var keptPosts: [KeptPost] = []
    /// The harness's user launch whose `launch` call has not been sent yet: it is sent, with the identifiers
    /// registered so far, at the first call of the app's code that needs the app running (a submit, a background
    /// task, the fetch interval), or when the closure returns. bgemu takes a launch's handlers when the launch
    /// starts the app's process, so an identifier registered after such a call is known here but not to bgemu.
    var launchToSend = false
    /// The `didFinishLaunching` the harness's own launch causes, not to be answered with a relaunch.
    var ownLaunchPending = false
    /// The `push.received` events' data, by `apnsId`.
    var pushes: [String: [String: JSONValue]] = [:]
    /// The device-state notifications a suspended app missed, posted when it runs again.
    var deferredNotifications: [Notification.Name] = []
    /// Whether the app registered for remote notifications (kept across its launches, as iOS keeps it).
    var remoteNotificationsRegistered = false
    /// The payloads the harness sent (``EmulatedDevice/push(_:to:)``), by `apnsId`: the `userInfo` as sent.
    var payloads: [String: [AnyHashable: Any]] = [:]

    init(device: EmulatedDevice, installed: InstalledApp) {
        self.device = device
        bundleId = installed.bundleId
        permittedIdentifiers = installed.permittedIdentifiers
        backgroundModes = installed.backgroundModes
    }

    var service: any RemoteDevice { device.service }

    /// The delegate whose callbacks the harness makes (also `UIApplication.shared.delegate` in the app's code).
    public var delegate: (any UIApplicationDelegate)? {
        get { lock.withLock { appDelegate } }
        set { lock.withLock { appDelegate = newValue } }
    }

    /// The scene delegate of a scene-based app (the class its `Info.plist`'s `UISceneDelegateClassName` names): set
    /// it before the launch; the harness connects a window scene with it when the user launches the app and makes
    /// the scene's lifecycle callbacks (`sceneDidEnterBackground`, …) in place of the app delegate's, as UIKit does.
    public var sceneDelegate: (any UISceneDelegate)? {
        get { lock.withLock { appSceneDelegate } }
        set { lock.withLock { appSceneDelegate = newValue } }
    }

    /// The app's terminations so far, oldest first: a watchdog kill shows here with reason `watchdog`.
    public var terminations: [Termination] { lock.withLock { endings } }

    /// The identifiers registered during the app's current process, in registration order.
    public var registeredIdentifiers: [String] { lock.withLock { registered } }

    /// The user taps the app's icon. An app that is not running launches: `didFinishLaunching` runs — the
    /// closure, with `BGTaskScheduler.shared` and `UIApplication.shared` bound to this app; the identifiers it
    /// registers are the app's launch handlers (R16) — then the app becomes active. A running app comes back to
    /// the foreground and the closure is only kept. The closure runs again whenever the system launches the app
    /// into the background. Returns once every callback the launch caused has run.
    ///
    /// The launched app becomes the one the process drives: code of it that runs outside the harness's tasks (on a
    /// dispatch queue, a thread, a timer, an observer) means this app, as long as no other app is launched after it.
    public func launch(
        isolation: isolated (any Actor)? = #isolation, _ didFinishLaunching: @escaping () throws -> Void = {}
    ) async throws {
        ProcessBinding.shared.launched(self)
        try await device.perform(turnOf: self) { try asTurnCode { try launchNow(didFinishLaunching) } }
    }

    /// The user presses Home: `applicationDidEnterBackground` runs, then the app is suspended unless something
    /// holds it (R1, R2).
    public func moveToBackground(isolation: isolated (any Actor)? = #isolation) async throws {
        try await device.perform { try service.lifecycle(bundleId, .background) }
    }

    /// The user returns to the app from the app switcher (R1).
    public func moveToForeground(isolation: isolated (any Actor)? = #isolation) async throws {
        try await device.perform { try service.lifecycle(bundleId, .foreground) }
    }

    /// The user swipes the app away (R5): the system does not launch it for background work until the user
    /// launches it again.
    public func forceQuit(isolation: isolated (any Actor)? = #isolation) async throws {
        try await device.perform { try service.lifecycle(bundleId, .forceQuit) }
    }

    /// The system reclaims the memory of the app in the background (R6); it may launch it again later.
    public func terminate(isolation: isolated (any Actor)? = #isolation) async throws {
        try await device.perform { try service.lifecycle(bundleId, .terminate) }
    }

    /// Runs `body` with the singletons bound to this app (for a test that calls the app's code directly, as a
    /// button of the app would in the foreground) as one of its turns, then dispatches what it caused.
    public func run<T>(isolation: isolated (any Actor)? = #isolation, _ body: () throws -> T) async throws -> T {
        try await device.perform(turnOf: self) { try AppContext.$scoped.withValue(self) { try asTurnCode { try body() } } }
    }

    /// Binds `BGTaskScheduler.shared` and `UIApplication.shared` to this app for `body` and the tasks it creates,
    /// without a harness call: for a process that drives several apps at once (tests in parallel), whose app code
    /// outside the harness's tasks cannot be attributed otherwise.
    public func bind<T>(_ body: () throws -> T) rethrows -> T {
        try AppContext.$scoped.withValue(self) { try body() }
    }

    /// Binds the singletons to this app for the asynchronous `body` and the tasks it creates.
    public func bind<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        try await AppContext.$scoped.withValue(self, operation: body)
    }

    // MARK: - Launch

    func launchNow(_ closure: @escaping () throws -> Void) throws {
        let running = lock.withLock { () -> Bool in
            launchClosure = closure
            return state != "notRunning"
        }
        if running {
            try service.launch(bundleId, launchHandlers: registeredIdentifiers)
            return
        }
        lock.withLock { launchToSend = true }
        let failure = runLaunchClosure()
        if lock.withLock({ launchToSend }) { try sendLaunch() }
        if let failure { throw failure }
    }

    /// Runs the launch closure with registration open, then posts `didFinishLaunchingNotification`; answers what the
    /// closure threw.
    func runLaunchClosure() -> (any Error)? {
        guard let closure = lock.withLock({ launchClosure }) else { return nil }
        lock.withLock { launching = true }
        defer { lock.withLock { launching = false } }
        do {
            try AppContext.$scoped.withValue(self) {
                try closure()
                postNotification(after: "didFinishLaunching")
            }
            return nil
        } catch {
            return error
        }
    }

    /// Sends the harness's user launch with the identifiers registered so far.
    func sendLaunch() throws {
        let handlers = lock.withLock { () -> [String] in
            launchToSend = false
            ownLaunchPending = true
            return registered
        }
        try service.launch(bundleId, launchHandlers: handlers)
    }

    /// Before app code reaches the service during the harness's launch: the app must be running there.
    func launchIfPending() throws {
        if lock.withLock({ launchToSend }) { try sendLaunch() }
    }
}
