import BackgroundTasks
import Foundation
import UIKit

/// Uploads the photos in the background. An upload is long: the system's expiration cancels it, and the upload's
/// queue reports the cancellation, which ends the work on the main queue.
final class PhotoSyncer: Sendable {
    static let identifier = "com.example.photos.refresh"

    let log = SyncLog()
    private let uploads = DispatchQueue(label: "com.example.photos.uploads")

    func registerLaunchHandler() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in
            self.handleSync(task as! BGAppRefreshTask)
        }
    }

    /// Asks for the next sync, 15 minutes from now at the earliest.
    func scheduleSync() {
        let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            log.note("Could not schedule the sync: \(error)")
        }
    }

    private func handleSync(_ task: BGAppRefreshTask) {
        log.note("sync started")
        let upload = startUpload { finished in
            DispatchQueue.main.async {
                self.log.note(finished ? "sync finished" : "sync cancelled")
                task.setTaskCompleted(success: finished)
                self.scheduleSync()
            }
        }
        task.expirationHandler = { [log] in
            log.note("sync expiring")
            upload.cancel()
        }
    }

    /// Saves the library under a background task; a large library outlasts the allowance, so the expiration
    /// handler cancels the save, whose queue then ends the task on the main queue.
    func saveLibrary(_ application: UIApplication) {
        let identifier = BackgroundTaskIdentifierBox()
        let save = startUpload { _ in
            DispatchQueue.main.async {
                self.log.note("save ended")
                application.endBackgroundTask(identifier.value)
            }
        }
        identifier.value = application.beginBackgroundTask(withName: "SaveLibrary") { [log] in
            log.note("save expiring")
            save.cancel()
        }
        log.began(identifier.value)
    }

    /// Starts an upload on the uploads queue that runs until cancelled (or ten minutes of real time), then calls
    /// `completion` there with whether it finished.
    private func startUpload(completion: @escaping @Sendable (Bool) -> Void) -> Upload {
        let upload = Upload()
        uploads.async { completion(upload.waitForCancellation()) }
        return upload
    }
}

/// One upload in flight: cancelled from any thread.
final class Upload: Sendable {
    private let cancelled = DispatchSemaphore(value: 0)

    func cancel() { cancelled.signal() }

    /// True when ten minutes of real time passed without a cancellation (the upload finished).
    func waitForCancellation() -> Bool { cancelled.wait(timeout: .now() + 600) == .timedOut }
}

/// A background task's identifier, known to its expiration handler once `beginBackgroundTask` has returned.
final class BackgroundTaskIdentifierBox: @unchecked Sendable {  // set once, on the main thread, before it is read
    var value = UIBackgroundTaskIdentifier.invalid
}
