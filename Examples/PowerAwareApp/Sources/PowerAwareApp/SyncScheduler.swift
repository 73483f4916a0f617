import BackgroundTasks
import Foundation
import UIKit

/// Schedules the app's background sync only while the system would run it: it pauses (cancels the pending request)
/// when Low Power Mode comes on or Background App Refresh goes off, and resumes (submits again) when both allow it,
/// as it learns from the system's notifications.
final class SyncScheduler: @unchecked Sendable {  // `paused` and `observers` are behind `lock`; the log has its own
    static let identifier = "com.example.poweraware.sync"

    let log = SyncLog()
    private let lock = NSLock()
    private var paused = false
    private var observers: [any NSObjectProtocol] = []

    /// Whether the system lets the app refresh in the background now.
    static var backgroundWorkAllowed: Bool {
        !ProcessInfo.processInfo.isLowPowerModeEnabled && UIApplication.shared.backgroundRefreshStatus == .available
    }

    var isPaused: Bool { lock.withLock { paused } }

    func start() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.identifier, using: nil) { task in
            self.handleSync(task as! BGAppRefreshTask)
        }
        let allowed = Self.backgroundWorkAllowed
        let names = [Notification.Name.NSProcessInfoPowerStateDidChange, UIApplication.backgroundRefreshStatusDidChangeNotification]
        let observers = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { [weak self] _ in
                self?.conditionsChanged()
            }
        }
        lock.withLock {
            paused = !allowed
            self.observers = observers
        }
    }

    /// Submits the next sync, an hour from now at the earliest, unless paused.
    func scheduleIfAllowed() {
        guard !isPaused else {
            log.skipped()
            return
        }
        let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 60 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
            log.scheduled()
        } catch {
            log.failed("Could not schedule the sync: \(error)")
        }
    }

    /// Low Power Mode or Background App Refresh changed: pause or resume on a change of what they allow (both
    /// notifications come for one switch of Low Power Mode; the second finds nothing to do).
    private func conditionsChanged() {
        let allowed = Self.backgroundWorkAllowed
        let wasPaused = lock.withLock { () -> Bool in
            defer { paused = !allowed }
            return paused
        }
        guard wasPaused == allowed else { return }
        if allowed {
            log.resumed()
            scheduleIfAllowed()
        } else {
            log.paused()
            BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: Self.identifier)
        }
    }

    private func handleSync(_ task: BGAppRefreshTask) {
        task.expirationHandler = { [log] in
            log.failed("The sync expired")
            task.setTaskCompleted(success: false)
        }
        log.synced()  // a real app syncs here
        task.setTaskCompleted(success: true)
        scheduleIfAllowed()
    }
}
