import Foundation

/// The task of a continued processing request (Apple's `BGContinuedProcessingTask`, iOS 26): it starts in the
/// foreground and keeps running in the background while its ``progress`` advances. Every change of the progress's
/// `completedUnitCount` or `totalUnitCount`, and every ``updateTitle(_:subtitle:)``, is reported to the device at
/// once; a task whose completed count stops growing for the device's stall limit (60 s) expires: its
/// ``BGTask/expirationHandler`` is called, as it is when the user cancels the task (R41). Progress that only a
/// child `Progress` carries is not reported: set `completedUnitCount` on ``progress`` itself.
@available(iOS 26.0, *)
public final class BGContinuedProcessingTask: BGTask, @unchecked Sendable {
    // @unchecked Sendable: `shown` is behind `titleLock`; `progress` reports through the app, which is Sendable.
    private let titleLock = NSLock()
    private var shown: (title: String, subtitle: String)
    private let reporter: ReportingProgress

    init(identifier: String, runId: String, app: EmulatedApp, title: String, subtitle: String) {
        shown = (title, subtitle)
        reporter = ReportingProgress()
        super.init(identifier: identifier, runId: runId, app: app)
        reporter.onChange = { [weak self] completed, total in self?.report(completed, total, titled: false) }
    }

    /// The title the system shows.
    public var title: String { titleLock.withLock { shown.title } }

    /// The subtitle the system shows.
    public var subtitle: String { titleLock.withLock { shown.subtitle } }

    /// The task's progress: advance `completedUnitCount` as the work goes, or the system expires the task.
    public var progress: Progress { reporter }

    /// Changes what the system shows for the task, and reports it.
    public func updateTitle(_ title: String, subtitle: String) {
        titleLock.withLock { shown = (title, subtitle) }
        report(reporter.completedUnitCount, reporter.totalUnitCount, titled: true)
    }

    private func report(_ completed: Int64, _ total: Int64, titled: Bool) {
        let (title, subtitle) = titleLock.withLock { shown }
        app.reportProgress(runId, ProgressReport(
            completedUnitCount: completed, totalUnitCount: total, title: titled ? title : nil, subtitle: titled ? subtitle : nil))
    }
}

/// A `Progress` that calls `onChange` whenever its own counts are set.
///
/// `@unchecked Sendable`: `onChange` is set once, before the task reaches app code.
final class ReportingProgress: Progress, @unchecked Sendable {
    var onChange: ((Int64, Int64) -> Void)?

    init() { super.init(parent: nil, userInfo: nil) }

    override var completedUnitCount: Int64 {
        get { super.completedUnitCount }
        set {
            super.completedUnitCount = newValue
            onChange?(newValue, super.totalUnitCount)
        }
    }

    override var totalUnitCount: Int64 {
        get { super.totalUnitCount }
        set {
            super.totalUnitCount = newValue
            onChange?(super.completedUnitCount, newValue)
        }
    }
}
