extension Device {
    /// The app's `backgroundTimeRemaining` in seconds at `now`: nil in the foreground (where iOS reports
    /// `DBL_MAX`, R10) and when none of its code runs; in the background, until the latest of what holds it.
    public func backgroundTimeRemaining(_ bundleId: String, at now: VirtualInstant) -> Double? {
        guard let app = app(bundleId), app.state == .background else { return nil }
        let runtime = app.runtime
        var ends: [VirtualInstant] = runtime.openRuns.map(\.deadline)
        if !runtime.openTasks.isEmpty, let end = runtime.allowanceEndsAt { ends.append(end) }
        if let grace = runtime.lifecycleGraceEndsAt { ends.append(grace) }
        guard let end = ends.max() else { return 0 }
        return max(0, (end - now).seconds)
    }
}
