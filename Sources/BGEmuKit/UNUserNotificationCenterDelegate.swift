import Foundation

/// The app's answers about its notifications (Apple's `UNUserNotificationCenterDelegate`, iOS 10). Every method
/// is optional in Apple's framework: the protocol extension gives each a default, so that a delegate implementing
/// some of them compiles. BGEmuKit calls `userNotificationCenter(_:willPresent:withCompletionHandler:)` when a
/// notification is delivered while the app is active; it emulates no user, so it never calls the other two.
/// (Apple's `async` forms of these methods are not declared: implement the completion-handler forms.) Main-actor
/// isolated, as the methods are called on the main queue: an app's `@MainActor` `AppDelegate` conforms as it does on
/// iOS (where the Objective-C protocol's conformance crossing into the main actor is only a warning).
@MainActor public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
    /// A notification is delivered while the app is in the foreground: answer how to show it.
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void)
    /// The user answered a notification (tapped it, chose an action, dismissed it).
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void)
    /// The user asked for the app's notification settings (iOS 12).
    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?)
}

/// Every method is optional: these answer as iOS does for a delegate that lacks them.
extension UNUserNotificationCenterDelegate {
    /// Shows nothing while the app is in the foreground (`[]`), as iOS does without the method.
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) { completionHandler([]) }
    /// Does nothing but complete.
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) { completionHandler() }
    /// Does nothing.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?) {}
}
