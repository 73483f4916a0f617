import UIKit

/// The app delegate: the refresher registers its launch handler at launch, refreshes there when the headlines are
/// stale, schedules the next background refresh when the app leaves, and refreshes again on its return when the
/// last refresh is over an hour old.
class AppDelegate: UIResponder, UIApplicationDelegate {
    let refresher = HeadlinesRefresher()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        refresher.registerLaunchHandler()
        refresher.refreshIfStale()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        refresher.scheduleRefresh()
    }

    func applicationWillEnterForeground(_ application: UIApplication) {
        refresher.refreshIfStale()
    }
}
