import Dispatch
import Foundation

/// Apple's `BGTaskScheduler`, bound to the app the harness is driving (see ``EmulatedApp``).
public final class BGTaskScheduler: Sendable {
    /// The scheduler of the app being driven.
    public static let shared = BGTaskScheduler()

    private init() {}

    /// Registers the launch handler for `identifier`. As on iOS, only during the app's launch (the closure of
    /// ``EmulatedApp/launch(_:)``, or the relaunch of an app the system launched) and only for an identifier in
    /// `BGTaskSchedulerPermittedIdentifiers`; otherwise it answers false (iOS raises an exception for a
    /// registration after launch). The handler is called on the harness's thread whatever `queue` says, so that
    /// the harness can return once it ran. (`@discardableResult`, unlike Apple's, for brevity in tests.)
    @discardableResult
    public func register(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?, launchHandler: @escaping (BGTask) -> Void
    ) -> Bool {
        AppContext.current?.register(identifier, launchHandler) ?? false
    }

    /// Submits a request to the device; a refusal throws the `BGTaskScheduler.Error` iOS would throw
    /// (`.unavailable` in Low Power Mode or with Background App Refresh off, `.notPermitted`,
    /// `.tooManyPendingTaskRequests`). Outside the app's code it throws `.unavailable`. A request whose identifier
    /// has no launch handler crashes the app on iOS: here the service terminates it and this throws
    /// ``BGEmuError/appCrashed(_:)``; a service that cannot be reached throws ``BGEmuError/transport(_:)``.
    public func submit(_ taskRequest: BGTaskRequest) throws {
        guard let app = AppContext.current else {
            throw Error(.unavailable, detail: "no app of an EmulatedDevice is being driven on this task")
        }
        try app.submit(taskRequest)
    }

    /// Cancels the pending request with this identifier, if any.
    public func cancel(taskRequestWithIdentifier identifier: String) {
        AppContext.current?.cancelTaskRequest(identifier)
    }

    /// Cancels every pending request of the app.
    public func cancelAllTaskRequests() {
        AppContext.current?.cancelAllTaskRequests()
    }

    /// The app's pending requests, their dates mapped back to the wall clock; called at once.
    public func getPendingTaskRequests(completionHandler: @escaping ([BGTaskRequest]) -> Void) {
        completionHandler(AppContext.current?.pendingTaskRequests() ?? [])
    }

    /// The app's pending requests, their dates mapped back to the wall clock.
    public func pendingTaskRequests() async -> [BGTaskRequest] {
        AppContext.current?.pendingTaskRequests() ?? []
    }
}
