import Foundation

/// Which of the device's events make the app's code busy or idle, for co-simulated time: read before the harness
/// dispatches each event, so that an item app code finishes inside its handler is opened before it is closed.
extension EmulatedApp {
    /// Opens, renews or closes the item of ``busy`` that `event` concerns.
    func trackBusy(_ event: DeviceEvent) {
        switch event.type {
        case .runStarted:
            lock.withLock { declinedCompletion = false }
            if let runId = event.string("runId"), handsCompletion(event) { busy.open(BusyLedger.run(runId)) }
        case .runExpiring:
            if let runId = event.string("runId") { busy.renew(BusyLedger.run(runId)) }
        case .runCompleted, .runExpired:
            if let runId = event.string("runId") { busy.close(BusyLedger.run(runId)) }
        case .backgroundTaskExpiring:
            if let taskId = event.string("taskId") { busy.renew(BusyLedger.backgroundTask(taskId)) }
        case .backgroundTaskEnded:
            if let taskId = event.string("taskId") { busy.close(BusyLedger.backgroundTask(taskId)) }
        case .appTerminated:
            busy.clear()
        default:
            break
        }
    }

    /// After the harness dispatched `event`: a run whose completion handler reached only the delegate's default
    /// implementation (the app does not implement the method) does not keep the app's code busy.
    func trackBusy(after event: DeviceEvent) {
        guard event.type == .runStarted, let runId = event.string("runId") else { return }
        if lock.withLock({ declinedCompletion }) { busy.close(BusyLedger.run(runId)) }
    }

    /// The delegate's default implementation of a callback with a completion handler ran: nothing will call it.
    func declineCompletion() { lock.withLock { declinedCompletion = true } }

    /// Whether the run `event` starts hands app code something to complete: a launch handler registered for its
    /// identifier, or a delegate for a fetch, a silent push or a URL session's events. A run no code of the app
    /// receives cannot be completed by it, and does not hold the clock.
    private func handsCompletion(_ event: DeviceEvent) -> Bool {
        switch event.string("kind") {
        case "appRefresh", "processing":
            let identifier = event.string("identifier") ?? ""
            return lock.withLock { handlers[identifier] != nil }
        case "fetch", "remoteNotification", "urlSessionEvents":
            return delegate != nil
        default:
            return false
        }
    }
}
