import Foundation

/// The app's notification center (Apple's `UNUserNotificationCenter`, iOS 10), as far as background code goes:
/// authorization, settings, and local notifications scheduled on the device (`POST …/notifications`, R40) that
/// fire on its virtual clock (`notification.delivered`) whether the app runs or not.
///
/// ``current()`` is the center of the app whose code calls it (as `UIApplication.shared`). bgemu has no permission
/// prompt: `requestAuthorization` grants what it asks. Completion handlers run on a queue of the center's (iOS:
/// a background queue) that the harness waits for before the app's turn ends.
///
/// `@unchecked Sendable`: its mutable state is behind `lock`.
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    let app: EmulatedApp
    private let lock = NSLock()
    private weak var appDelegate: (any UNUserNotificationCenterDelegate)?
    private var status = UNAuthorizationStatus.notDetermined
    private var granted: UNAuthorizationOptions = []
    private var added: [String: UNNotificationRequest] = [:]
    /// Where completion handlers run.
    let callbacks: DispatchQueue

    init(app: EmulatedApp) {
        self.app = app
        callbacks = DispatchQueue(label: "UNUserNotificationCenter.\(app.bundleId)")
        super.init()
        app.lock.withLock { app.handlerQueues.append(callbacks) }
    }

    /// The notification center of the app whose code is calling.
    open class func current() -> UNUserNotificationCenter {
        let app = AppContext.app(for: "UNUserNotificationCenter.current()")
        return Centers.shared.center(of: app, create: true)!
    }

    /// The delegate told of notifications delivered while the app is in the foreground; held weakly, as on iOS.
    open weak var delegate: (any UNUserNotificationCenterDelegate)? {
        get { lock.withLock { appDelegate } }
        set { lock.withLock { appDelegate = newValue } }
    }

    /// Asks the user to allow `options` (iOS 10); bgemu grants them: `completionHandler(true, nil)`.
    open func requestAuthorization(
        options: UNAuthorizationOptions = [], completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        grant(options)
        later { completionHandler(true, nil) }
    }

    /// Sets the app icon's badge (iOS 16): kept as the app's `badgeCount` (bgemu shows no icon).
    open func setBadgeCount(_ newBadgeCount: Int, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        badgeCount = newBadgeCount
        if let completionHandler { later { completionHandler(nil) } }
    }

    /// Sets the app icon's badge (iOS 16).
    open func setBadgeCount(_ newBadgeCount: Int) async throws { badgeCount = newBadgeCount }

    private let badgeLock = NSLock()
    private var badge = 0
    /// The badge the app last set with ``setBadgeCount(_:withCompletionHandler:)`` (bgemu's, for tests).
    public var badgeCount: Int {
        get { badgeLock.withLock { badge } }
        set { badgeLock.withLock { badge = newValue } }
    }

    /// Asks the user to allow `options` (iOS 10); bgemu grants them.
    open func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool {
        grant(options)
        return true
    }

    /// The app's notification settings (iOS 10).
    open func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void) {
        let settings = currentSettings()
        later { completionHandler(settings) }
    }

    /// The app's notification settings (iOS 10).
    open func notificationSettings() async -> UNNotificationSettings { currentSettings() }

    /// Schedules `request` on the device (iOS 10), replacing one of the same identifier; `completionHandler` gets
    /// nil, or the service's refusal (``BGEmuError/problem(_:)``: a date not ahead, an interval out of range).
    open func add(_ request: UNNotificationRequest, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil) {
        let failure: (any Error)?
        do { try schedule(request); failure = nil } catch { failure = error }
        if let completionHandler { later { completionHandler(failure) } }
    }

    /// Schedules `request` on the device (iOS 10); throws the service's refusal.
    open func add(_ request: UNNotificationRequest) async throws { try schedule(request) }

    /// Cancels the pending requests of these identifiers (iOS 10).
    open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        for identifier in identifiers {
            app.attempt { try app.service.cancelNotification(app.bundleId, identifier: identifier) }
        }
    }

    /// The request added under `identifier`, for a delivered notification.
    func request(_ identifier: String) -> UNNotificationRequest? { lock.withLock { added[identifier] } }

    private func grant(_ options: UNAuthorizationOptions) {
        lock.withLock {
            status = .authorized
            granted.formUnion(options)
        }
    }

    private func currentSettings() -> UNNotificationSettings {
        lock.withLock { UNNotificationSettings(authorizationStatus: status, options: granted) }
    }

    /// Runs `call` on the center's queue, bound to the app.
    private func later(_ call: @escaping @Sendable () -> Void) {
        app.noteActivity()
        let app = self.app
        callbacks.async { AppContext.$scoped.withValue(app) { call() } }
    }

    private func schedule(_ request: UNNotificationRequest) throws {
        var body = LocalNotificationBody(identifier: request.identifier)
        body.title = request.content.title.isEmpty ? nil : request.content.title
        body.body = request.content.body.isEmpty ? nil : request.content.body
        switch request.trigger {
        case let interval as UNTimeIntervalNotificationTrigger:
            body.timeInterval = interval.timeInterval
            body.repeats = interval.repeats
        case let calendar as UNCalendarNotificationTrigger:
            guard let date = calendar.nextDate(after: try app.service.clockNow()) else {
                throw BGEmuError.notConfigured("no date matches \(calendar.dateComponents)")
            }
            body.fireDate = date
        default:
            // No trigger: at once (the smallest interval bgemu takes).
            body.timeInterval = 0.001
        }
        do {
            try app.service.scheduleNotification(app.bundleId, body)
        } catch let problem as ServiceProblem {
            throw BGEmuError.problem(problem)
        }
        lock.withLock { added[request.identifier] = request }
    }
}

/// Each app's notification center.
final class Centers: @unchecked Sendable {
    // @unchecked Sendable: `centers` is behind `lock`.
    static let shared = Centers()
    private let lock = NSLock()
    private var centers: [ObjectIdentifier: UNUserNotificationCenter] = [:]

    /// The center of `app`; made when `create`, else nil when the app has none yet.
    func center(of app: EmulatedApp, create: Bool) -> UNUserNotificationCenter? {
        lock.withLock {
            if let center = centers[ObjectIdentifier(app)] { return center }
            guard create else { return nil }
            let center = UNUserNotificationCenter(app: app)
            centers[ObjectIdentifier(app)] = center
            return center
        }
    }
}

extension EmulatedApp {
    /// A notification was shown (`notification.delivered`): while the app is active, its center's delegate is asked
    /// how to present it, as iOS asks; in the background the user sees it and the app's code does not run.
    func notificationDelivered(_ event: DeviceEvent) {
        guard (event.string("appState") ?? lock.withLock({ state })) == "active",
              let center = Centers.shared.center(of: self, create: false), let delegate = center.delegate else { return }
        let identifier = event.string("identifier") ?? ""
        let request = center.request(identifier) ?? {
            let content = UNMutableNotificationContent()
            content.title = event.string("title") ?? ""
            content.body = event.string("body") ?? ""
            return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
        }()
        let notification = UNNotification(date: event.at, request: request)
        MainQueue.run { delegate.userNotificationCenter(center, willPresent: notification) { _ in } }
    }
}
