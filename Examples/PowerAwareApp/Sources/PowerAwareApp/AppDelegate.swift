import UIKit

/// The app delegate: it starts the sync scheduler at launch and asks it for the next sync whenever the app enters
/// the background.
class AppDelegate: UIResponder, UIApplicationDelegate {
    let sync = SyncScheduler()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        sync.start()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        sync.scheduleIfAllowed()
    }
}
