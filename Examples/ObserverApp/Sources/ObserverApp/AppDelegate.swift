import UIKit

/// The app delegate: it only starts the drafts' sync, which observes the app's lifecycle on its own.
class AppDelegate: UIResponder, UIApplicationDelegate {
    let sync = DraftSync()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        sync.start()
        return true
    }
}
