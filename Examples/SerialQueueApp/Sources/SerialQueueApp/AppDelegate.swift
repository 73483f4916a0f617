import UIKit

/// The app delegate: the refresher registers its launch handler at launch and schedules the next refresh whenever
/// the app enters the background.
class AppDelegate: UIResponder, UIApplicationDelegate {
    let refresher = FeedRefresher()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        refresher.registerLaunchHandler()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        refresher.scheduleRefresh()
    }
}
