import Dispatch
import Foundation

/// Apple's `BGTaskScheduler`, bound to the app whose code calls it: the app the harness is running, or the app the
/// process drives for code on dispatch queues, threads, timers and observers. A call no app can be told for stops
/// the process with a message saying how to bind one (see ``EmulatedApp/bind(_:)``).
public final class BGTaskScheduler: Sendable {
    /// The scheduler of the app being driven.
    public static let shared = BGTaskScheduler()

    private init() {}

    /// Registers the launch handler for `identifier`. As on iOS, only during the app's launch (the closure of
    /// ``EmulatedApp/launch(_:)``, or the relaunch of an app the system launched) and only for an identifier in
    /// `BGTaskSchedulerPermittedIdentifiers`; otherwise it answers false (iOS raises an exception for a
    /// registration after launch). The handler runs on `queue` (nil: on the harness's thread), bound to the app;
    /// the harness waits for it, and for the blocks left on that queue, before it lets the device suspend the app.
    /// (`@discardableResult`, unlike Apple's, for brevity in tests.)
    @discardableResult
    public func register(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, launchHandler: @escaping (BGTask) -> Void
    ) -> Bool {
        AppContext.app(for: "BGTaskScheduler.shared.register(forTaskWithIdentifier:using:launchHandler:)")
            .register(identifier, queue: queue, launchHandler)
    }

    /// Submits a request to the device; a refusal throws the `BGTaskScheduler.Error` iOS would throw
    /// (`.unavailable` in Low Power Mode or with Background App Refresh off, `.notPermitted`,
    /// `.tooManyPendingTaskRequests`); any other refusal of bgemu throws `.unavailable` with bgemu's reason as the
    /// detail. A request whose identifier has no launch handler crashes the app on iOS: here the service terminates
    /// it and this throws ``BGEmuError/appCrashed(_:)``; a service that cannot be reached throws
    /// ``BGEmuError/transport(_:)``.
    public func submit(_ taskRequest: BGTaskRequest) throws {
        try AppContext.app(for: "BGTaskScheduler.shared.submit(_:)").submit(taskRequest)
    }

    /// Cancels the pending request with this identifier, if any.
    public func cancel(taskRequestWithIdentifier identifier: String) {
        AppContext.app(for: "BGTaskScheduler.shared.cancel(taskRequestWithIdentifier:)").cancelTaskRequest(identifier)
    }

    /// Cancels every pending request of the app.
    public func cancelAllTaskRequests() {
        AppContext.app(for: "BGTaskScheduler.shared.cancelAllTaskRequests()").cancelAllTaskRequests()
    }

    /// The app's pending requests, their dates mapped back to the wall clock; called at once.
    public func getPendingTaskRequests(completionHandler: @escaping ([BGTaskRequest]) -> Void) {
        completionHandler(AppContext.app(for: "BGTaskScheduler.shared.getPendingTaskRequests(completionHandler:)").pendingTaskRequests())
    }

    /// The app's pending requests, their dates mapped back to the wall clock.
    public func pendingTaskRequests() async -> [BGTaskRequest] {
        AppContext.app(for: "BGTaskScheduler.shared.pendingTaskRequests()").pendingTaskRequests()
    }
}
