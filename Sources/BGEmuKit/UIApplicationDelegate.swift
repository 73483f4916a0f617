import Foundation

/// The app delegate's callbacks that background execution makes, with Apple's names. Every method is optional:
/// the protocol extension gives each an empty default (the completion handlers of the defaults are not called,
/// as an app that does not implement them never calls them).
@MainActor public protocol UIApplicationDelegate: AnyObject {
    /// The app became active (R1).
    func applicationDidBecomeActive(_ application: UIApplication)
    /// The app is about to leave the foreground (R1).
    func applicationWillResignActive(_ application: UIApplication)
    /// The app entered the background: about 5 s to save state, longer with a background task (R2, R8).
    func applicationDidEnterBackground(_ application: UIApplication)
    /// The app is about to return to the foreground (R1).
    func applicationWillEnterForeground(_ application: UIApplication)
    /// The app's process is about to end while its code runs (R4–R6).
    func applicationWillTerminate(_ application: UIApplication)
    /// A background fetch run (R28): call the handler with the result within the run's 30 s.
    func application(
        _ application: UIApplication, performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void)
    /// A silent push (a `remoteNotification` run, R29–R31), or a push delivered in the foreground. BGEmuKit builds
    /// `userInfo` from the `push.received` event: `aps` with `content-available` and `alert`, and `apnsId`; other
    /// keys of the payload are not carried.
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void)
    /// A background URL session's transfers ended (a `urlSessionEvents` run, R32).
    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void)
    /// The app registered for remote notifications (`registerForRemoteNotifications()`, iOS 3): `deviceToken` is
    /// the token to send to the app's push server (BGEmuKit's is made from the device's and the app's ids).
    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)
    /// Registration failed (iOS 3); BGEmuKit's registration never fails.
    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error)
}

/// Every callback is optional: these do nothing.
extension UIApplicationDelegate {
    /// Does nothing.
    /// Does nothing.
    public func applicationDidBecomeActive(_ application: UIApplication) {}
    /// Does nothing.
    /// Does nothing.
    public func applicationWillResignActive(_ application: UIApplication) {}
    /// Does nothing.
    /// Does nothing.
    public func applicationDidEnterBackground(_ application: UIApplication) {}
    /// Does nothing.
    /// Does nothing.
    public func applicationWillEnterForeground(_ application: UIApplication) {}
    /// Does nothing.
    /// Does nothing.
    public func applicationWillTerminate(_ application: UIApplication) {}
    /// Does nothing (its run does not keep the app's code busy: the handler is never called).
    public func application(
        _ application: UIApplication, performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) { AppContext.scoped?.declineCompletion() }
    /// Does nothing (its run does not keep the app's code busy: the handler is never called).
    public func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) { AppContext.scoped?.declineCompletion() }
    /// Does nothing (its run does not keep the app's code busy: the handler is never called).
    public func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) { AppContext.scoped?.declineCompletion() }
    /// Does nothing.
    public func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {}
    /// Does nothing.
    public func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {}
}
