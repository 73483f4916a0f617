// The weather app's background logic, written as it is for iOS: on a phone it uses Apple's frameworks, in Linux CI
// the same code runs against a bgemu device through BGEmuKit, which has the same names.
#if canImport(BackgroundTasks) && canImport(UIKit)
import BackgroundTasks
import UIKit
#else
import BGEmuKit
#endif
import Foundation

/// What the app keeps: the forecast it fetched, and a record of what its background code did (for its tests).
public final class WeatherStore: @unchecked Sendable {  // every property is behind `lock`
    private let lock = NSLock()
    private var _refreshes = 0
    private var _expirations = 0
    private var _savedOnBackground = 0
    private var _saveExpired = 0
    private var _pushes: [[AnyHashable: Any]] = []
    private var _submitErrors: [BGTaskScheduler.Error.Code] = []

    public init() {}

    public var refreshes: Int { lock.withLock { _refreshes } }
    public var expirations: Int { lock.withLock { _expirations } }
    public var savedOnBackground: Int { lock.withLock { _savedOnBackground } }
    public var saveExpired: Int { lock.withLock { _saveExpired } }
    public var pushCount: Int { lock.withLock { _pushes.count } }
    /// The `menu` key of the last push.
    public var lastMenu: String? { lock.withLock { _pushes.last?["menu"] as? String } }
    public var submitErrors: [BGTaskScheduler.Error.Code] { lock.withLock { _submitErrors } }

    func refreshed() { lock.withLock { _refreshes += 1 } }
    func expired() { lock.withLock { _expirations += 1 } }
    func saved() { lock.withLock { _savedOnBackground += 1 } }
    func saveWasCutShort() { lock.withLock { _saveExpired += 1 } }
    func received(_ push: [AnyHashable: Any]) { lock.withLock { _pushes.append(push) } }
    func submitFailed(_ code: BGTaskScheduler.Error.Code) { lock.withLock { _submitErrors.append(code) } }
}

/// The app delegate and its BGTaskScheduler work.
public final class WeatherAppDelegate: UIApplicationDelegate, @unchecked Sendable {  // state lives in `store`
    public static let refreshIdentifier = "com.example.weather.refresh"

    public let store: WeatherStore
    /// How the app's refresh handler behaves; a real app always completes, its tests also try one that never does.
    public var completesRefreshes = true
    /// Whether the refresh's expiration handler completes the task (a buggy app forgets to).
    public var completesOnExpiration = true
    /// Whether saving on entering the background ends its background task (a buggy app forgets to).
    public var endsSaveTask = true

    public init(store: WeatherStore = WeatherStore()) { self.store = store }

    /// `application(_:didFinishLaunchingWithOptions:)`'s part: register the handlers, schedule the first refresh.
    public func didFinishLaunching() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refreshIdentifier, using: nil) { [self] task in
            handleRefresh(task as! BGAppRefreshTask)
        }
        scheduleRefresh()
    }

    /// Ask for the next refresh, 15 minutes from now at the earliest.
    public func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.refreshIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch let error as BGTaskScheduler.Error {
            store.submitFailed(error.code)
        } catch {
            store.submitFailed(.unavailable)
        }
    }

    func handleRefresh(_ task: BGAppRefreshTask) {
        scheduleRefresh()  // the next one first, as Apple's sample does
        let completesOnExpiration = self.completesOnExpiration
        task.expirationHandler = { [store] in
            store.expired()
            if completesOnExpiration { task.setTaskCompleted(success: false) }
        }
        guard completesRefreshes else { return }
        store.refreshed()  // a real app fetches the forecast here
        task.setTaskCompleted(success: true)
    }

    public func applicationDidEnterBackground(_ application: UIApplication) {
        // Save the forecast under a background task, ended as soon as the work is done.
        var identifier = UIBackgroundTaskIdentifier.invalid
        identifier = application.beginBackgroundTask(withName: "SaveForecast") { [store] in
            store.saveWasCutShort()
            application.endBackgroundTask(identifier)
        }
        store.saved()
        if endsSaveTask { application.endBackgroundTask(identifier) }
    }

    public func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        store.received(userInfo)
        completionHandler(.newData)
    }
}
