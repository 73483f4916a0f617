import BackgroundTasks
import Foundation

/// Owns the feeds' background refresh. Its BGTaskScheduler work runs on one serial queue, off the main thread: the
/// launch handler is registered with that queue, and every submit is enqueued on it, whoever asks.
final class FeedRefresher: Sendable {
    static let identifier = "com.example.feeds.refresh"

    let log = RefreshLog()
    private let queue = DispatchQueue(label: "com.example.feeds.refresher")

    func registerLaunchHandler() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: queue) { task in
            self.handleRefresh(task as! BGAppRefreshTask)
        }
    }

    /// Asks for the next refresh, 30 minutes from now at the earliest.
    func scheduleRefresh() {
        queue.async {
            let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
            request.earliestBeginDate = Date(timeIntervalSinceNow: 30 * 60)
            do {
                try BGTaskScheduler.shared.submit(request)
                self.log.scheduled()
            } catch {
                self.log.failed("Could not schedule the refresh: \(error)")
            }
        }
    }

    private func handleRefresh(_ task: BGAppRefreshTask) {
        task.expirationHandler = { [log] in
            log.failed("The refresh expired")
            task.setTaskCompleted(success: false)
        }
        log.refreshed()  // a real app fetches its feeds here
        task.setTaskCompleted(success: true)
        scheduleRefresh()
    }
}
