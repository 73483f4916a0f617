import UIKit

/// The app delegate: the syncer registers its launch handler at launch; on entering the background the app
/// schedules the next sync and saves its library under a background task.
class AppDelegate: UIResponder, UIApplicationDelegate {
    let syncer = PhotoSyncer()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        syncer.registerLaunchHandler()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        syncer.scheduleSync()
        syncer.saveLibrary(application)
    }
}
