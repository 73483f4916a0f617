import Foundation

/// The task the system hands a launch handler (Apple's `BGTask`). Bound to its run on the emulated device
/// wherever it goes, so it can be completed from any thread.
///
/// `@unchecked Sendable`: its mutable state (the handler, whether it completed) is behind `lock`.
public class BGTask: @unchecked Sendable {
    /// The identifier of the request that launched it.
    public let identifier: String
    let runId: String
    let app: EmulatedApp
    private let lock = NSLock()
    private var handler: (() -> Void)?
    private var completed = false

    init(identifier: String, runId: String, app: EmulatedApp) {
        self.identifier = identifier
        self.runId = runId
        self.app = app
    }

    /// Called when the task's time runs out (`run.expiring`): finish quickly and call ``setTaskCompleted(success:)``,
    /// else the app is terminated when the grace period ends (R22).
    public var expirationHandler: (() -> Void)? {
        get { lock.withLock { handler } }
        set { lock.withLock { handler = newValue } }
    }

    /// Ends the run; a second call does nothing. Called by the code of a turn of the harness (the handler, the
    /// blocks it left on the main queue and on its queue) the run ends on the device when the turn is over, at the
    /// same virtual instant; called from elsewhere (a `Task` after `async` work, a thread), once that code's calls
    /// of the service have been answered: as on iOS the app keeps running until its current work has returned, so
    /// a `submit` on the next line is accepted, and it is suspended after (R23).
    public func setTaskCompleted(success: Bool) {
        let first = lock.withLock { () -> Bool in
            defer { completed = true }
            return !completed
        }
        if first { app.completeRun(runId, .success(success)) }
    }

    /// The run ended on the service (completed or expired): later completions do nothing.
    func markEnded() { lock.withLock { completed = true } }
}

/// The task of an app refresh request (Apple's `BGAppRefreshTask`).
public final class BGAppRefreshTask: BGTask, @unchecked Sendable {}

/// The task of a processing request (Apple's `BGProcessingTask`).
public final class BGProcessingTask: BGTask, @unchecked Sendable {}
