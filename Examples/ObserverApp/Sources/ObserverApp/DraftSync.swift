import BackgroundTasks
import UIKit

/// Keeps the user's drafts in sync. It observes the app's lifecycle notifications: entering the background, it
/// schedules the next sync and saves the drafts under a background task begun on the main queue.
final class DraftSync: @unchecked Sendable {  // its state is in `log`, behind a lock; `endsSaveTask` is set before launch
    static let syncIdentifier = "com.example.drafts.sync"

    let log = DraftLog()
    /// Whether saving ends its background task (a buggy app forgets to; its expiration handler then ends it).
    var endsSaveTask = true
    private var observer: (any NSObjectProtocol)?

    func start() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.syncIdentifier, using: nil) { task in
            self.handleSync(task as! BGAppRefreshTask)
        }
        observer = NotificationCenter.default.addObserver(
            forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main
        ) { [weak self] _ in
            self?.appDidEnterBackground()
        }
    }

    private func appDidEnterBackground() {
        scheduleSync()
        DispatchQueue.main.async {
            self.saveDrafts()
        }
    }

    func scheduleSync() {
        let request = BGAppRefreshTaskRequest(identifier: Self.syncIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 60 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            log.failed("Could not schedule the sync: \(error)")
        }
    }

    private func saveDrafts() {
        var taskID = UIBackgroundTaskIdentifier.invalid
        taskID = UIApplication.shared.beginBackgroundTask(withName: "SaveDrafts") { [log] in
            log.saveCutShort()
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
        log.began(taskID)
        log.saved()  // a real app writes its drafts here
        if endsSaveTask {
            UIApplication.shared.endBackgroundTask(taskID)
            taskID = .invalid
        }
    }

    private func handleSync(_ task: BGAppRefreshTask) {
        task.expirationHandler = { [log] in
            log.failed("The sync expired")
            task.setTaskCompleted(success: false)
        }
        log.synced()  // a real app uploads its drafts here
        task.setTaskCompleted(success: true)
        scheduleSync()
    }
}
