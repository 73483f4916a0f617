import Foundation

/// The lifecycle notifications UIKit posts on `NotificationCenter.default` right after the matching app delegate
/// callback, with the application as the object; the harness posts them on its thread within the app's turn, so an
/// observer's block (run at once, or on `OperationQueue.main`) runs before the device may suspend the app.
/// `NotificationCenter.default` is the process's: with several apps at once (tests in parallel), every app's
/// observers see every app's notifications, as ``EmulatedApp/bind(_:)`` explains.
extension UIApplication {
    /// After `application(_:didFinishLaunchingWithOptions:)` (the launch closure).
    public static let didFinishLaunchingNotification = Notification.Name("UIApplicationDidFinishLaunchingNotification")
    /// After `applicationDidBecomeActive(_:)`.
    public static let didBecomeActiveNotification = Notification.Name("UIApplicationDidBecomeActiveNotification")
    /// After `applicationWillResignActive(_:)`.
    public static let willResignActiveNotification = Notification.Name("UIApplicationWillResignActiveNotification")
    /// After `applicationDidEnterBackground(_:)`: where many apps begin a background task or schedule a refresh.
    public static let didEnterBackgroundNotification = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    /// After `applicationWillEnterForeground(_:)`.
    public static let willEnterForegroundNotification = Notification.Name("UIApplicationWillEnterForegroundNotification")
    /// After `applicationWillTerminate(_:)`.
    public static let willTerminateNotification = Notification.Name("UIApplicationWillTerminateNotification")

    /// The notification UIKit posts after the delegate callback `callback` (an `app.delegate` event's name).
    static func notification(after callback: String) -> Notification.Name? {
        switch callback {
        case "didFinishLaunching": didFinishLaunchingNotification
        case "didBecomeActive": didBecomeActiveNotification
        case "willResignActive": willResignActiveNotification
        case "didEnterBackground": didEnterBackgroundNotification
        case "willEnterForeground": willEnterForegroundNotification
        case "willTerminate": willTerminateNotification
        default: nil
        }
    }

}

extension EmulatedApp {
    /// Posts the notification that follows the delegate callback `callback`, if any, with the application.
    func postNotification(after callback: String) {
        guard let name = UIApplication.notification(after: callback) else { return }
        postSoon(name, object: UIApplication.shared)
    }
}
