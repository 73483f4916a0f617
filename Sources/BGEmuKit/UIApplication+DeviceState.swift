import Foundation

/// What the app reads of the device's state, answered by the service when asked (whoever changed it: a test's
/// ``EmulatedDevice/setConditions(batteryLevel:charging:lowPowerMode:network:backgroundAppRefresh:locked:userActive:isolation:)``
/// or another client of the service), and the notifications UIKit posts when it changes (see
/// ``EmulatedApp`` for when they are posted).
extension UIApplication {
    /// Posted when ``backgroundRefreshStatus`` changes: the device's or the app's Background App Refresh switch,
    /// or Low Power Mode (iOS 7).
    public static let backgroundRefreshStatusDidChangeNotification =
        Notification.Name("UIApplicationBackgroundRefreshStatusDidChangeNotification")
    /// Posted when the device locks: protected files are about to become unreadable (iOS 4).
    public static let protectedDataWillBecomeUnavailableNotification =
        Notification.Name("UIApplicationProtectedDataWillBecomeUnavailable")
    /// Posted when the device unlocks: protected files are readable again (iOS 4).
    public static let protectedDataDidBecomeAvailableNotification =
        Notification.Name("UIApplicationProtectedDataDidBecomeAvailable")

    /// Whether the system may launch the app to refresh its content (iOS 7): `.denied` while the device's or
    /// the app's Background App Refresh switch is off or Low Power Mode is on (R18, as `submit` is then refused
    /// with `.unavailable`), else `.available`. bgemu has no parental controls: never `.restricted`.
    public var backgroundRefreshStatus: UIBackgroundRefreshStatus {
        let app = AppContext.app(for: "UIApplication.shared.backgroundRefreshStatus")
        guard let conditions = app.attempt({ try app.service.conditions() }),
              let status = app.attempt({ try app.service.appStatus(app.bundleId) }) else { return .denied }
        let on = conditions.backgroundAppRefresh && status.backgroundAppRefresh && !conditions.lowPowerMode
        return on ? .available : .denied
    }

    /// Whether files with data protection can be read (iOS 4): false while the device is locked. (iOS makes
    /// `complete`-protected files unreadable some seconds after the lock; bgemu's device has no such delay.)
    public var isProtectedDataAvailable: Bool {
        let app = AppContext.app(for: "UIApplication.shared.isProtectedDataAvailable")
        return !(app.attempt { try app.service.conditions() }?.locked ?? false)
    }
}
