import UIKit

/// The app delegate: the exporter registers its continued processing launch handler at launch.
@available(iOS 26.0, *)
class AppDelegate: UIResponder, UIApplicationDelegate {
    var exporter = PhotoExporter()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        exporter.registerLaunchHandler()
        return true
    }
}
