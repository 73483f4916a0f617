import Foundation

/// Apple's `UIApplication`, as far as background execution goes, bound to the app whose code calls it: the app the
/// harness is running, or the app the process drives for code on dispatch queues, threads, timers and observers. A
/// call no app can be told for stops the process with a message saying how to bind one (see ``EmulatedApp/bind(_:)``).
public final class UIApplication: Sendable {
    /// The application of the app being driven.
    public static let shared = UIApplication()

    private init() {}

    /// The app's lifecycle state (Apple's `UIApplication.State`).
    public enum State: Int, Sendable {
        /// In the foreground, receiving events.
        case active = 0
        /// In the foreground, not receiving events (launching, leaving).
        case inactive = 1
        /// In the background (also reported while suspended or not running).
        case background = 2
    }

    /// Apple's `UIApplication.LaunchOptionsKey`, for `application(_:didFinishLaunchingWithOptions:)`'s signature:
    /// BGEmuKit's launches pass no options.
    public struct LaunchOptionsKey: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// As often as the system allows (`setMinimumBackgroundFetchInterval`).
    public static let backgroundFetchIntervalMinimum: TimeInterval = 0
    /// No background fetch (the default).
    public static let backgroundFetchIntervalNever: TimeInterval = .greatestFiniteMagnitude

    /// The app's delegate, whose callbacks the harness makes. Held strongly (iOS holds it weakly; its app object
    /// owns it there). Set it in the launch closure, or with ``EmulatedApp/delegate``.
    public var delegate: (any UIApplicationDelegate)? {
        get { AppContext.app(for: "UIApplication.shared.delegate").delegate }
        set { AppContext.app(for: "UIApplication.shared.delegate").delegate = newValue }
    }

    /// Begins a background task (R8): the app keeps running for `backgroundTaskAllowance` after it leaves the
    /// foreground; `handler` is called shortly before that ends (R11); a task still open then gets the app
    /// terminated by the watchdog (R12). `.invalid` when nothing began (a device without multitasking, R14).
    public func beginBackgroundTask(
        withName taskName: String?, expirationHandler handler: (() -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier {
        AppContext.app(for: "UIApplication.shared.beginBackgroundTask(withName:expirationHandler:)")
            .beginBackgroundTask(name: taskName, expirationHandler: handler)
    }

    /// Begins a background task without a name.
    public func beginBackgroundTask(expirationHandler handler: (() -> Void)? = nil) -> UIBackgroundTaskIdentifier {
        beginBackgroundTask(withName: nil, expirationHandler: handler)
    }

    /// Ends a background task, from any thread; an identifier that is not open is ignored. Ended within a turn of
    /// the harness, the task ends on the device when the turn is over (R13: the app is suspended after its current
    /// work, not inside this call).
    public func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {
        guard let entry = BackgroundTaskRegistry.shared.remove(identifier) else { return }
        entry.app.endBackgroundTask(entry.taskId)
    }

    /// Seconds of background time left (R10): `.greatestFiniteMagnitude` in the foreground, as iOS's `DBL_MAX`.
    public var backgroundTimeRemaining: TimeInterval {
        guard let status = AppContext.app(for: "UIApplication.shared.backgroundTimeRemaining").status() else { return 0 }
        if let remaining = status.backgroundTimeRemaining { return remaining }
        return status.state == "active" || status.state == "inactive" ? .greatestFiniteMagnitude : 0
    }

    /// The app's state on the device: `background` also while it is suspended or not running.
    public var applicationState: State {
        switch AppContext.app(for: "UIApplication.shared.applicationState").status()?.state {
        case "active": .active
        case "inactive": .inactive
        default: .background
        }
    }

    /// The minimum background fetch interval (R28): ``backgroundFetchIntervalMinimum``,
    /// ``backgroundFetchIntervalNever``, or seconds (bgemu takes up to a week; longer is sent as a week).
    public func setMinimumBackgroundFetchInterval(_ minimumBackgroundFetchInterval: TimeInterval) {
        AppContext.app(for: "UIApplication.shared.setMinimumBackgroundFetchInterval(_:)").setFetchInterval(minimumBackgroundFetchInterval)
    }
}
