import BackgroundTasks
import UIKit

/// The app delegate, as Xcode's template and Apple's background refresh sample write it: it registers the refresh
/// handler at launch; the scene delegate schedules the refresh when the scene enters the background, and the handler
/// completes its task and schedules the next refresh on the line after.
class AppDelegate: UIResponder, UIApplicationDelegate {
    static let refreshIdentifier = "com.example.articles.refresh"

    let feed = ArticleFeed()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refreshIdentifier, using: nil) { task in
            self.handleAppRefresh(task: task as! BGAppRefreshTask)
        }
        return true
    }

    func application(
        _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration {
        UISceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role)
    }

    func scheduleAppRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.refreshIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            feed.failed("Could not schedule app refresh: \(error)")
        }
    }

    func handleAppRefresh(task: BGAppRefreshTask) {
        task.expirationHandler = { [feed] in
            feed.failed("The refresh expired")
            task.setTaskCompleted(success: false)
        }
        feed.refresh()
        task.setTaskCompleted(success: true)
        scheduleAppRefresh()
    }
}
