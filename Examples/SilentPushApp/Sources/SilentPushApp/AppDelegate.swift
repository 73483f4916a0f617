import UIKit
import UserNotifications

/// The app delegate: at launch it registers for remote notifications and handles the notification center's
/// callbacks; a silent push refreshes the article it names and completes with `.newData`.
class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
    let articles = ArticleStore()
    /// The APNs device token, hex-encoded as the app's push server wants it.
    private(set) var deviceToken: String?

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        UNUserNotificationCenter.current().delegate = self
        UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .badge]) { [articles] granted, _ in
            if !granted { articles.failed("Notifications were not allowed") }
        }
        application.registerForRemoteNotifications()
        return true
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        self.deviceToken = deviceToken.map { String(format: "%02x", $0) }.joined()
        // A real app sends the token to its push server here.
    }

    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {
        articles.failed("Could not register for remote notifications: \(error)")
    }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        guard let id = userInfo["article"] as? Int else {
            completionHandler(.noData)
            return
        }
        completionHandler(articles.refresh(article: id) ? .newData : .failed)
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        completionHandler([.banner, .list])
    }
}
