import Foundation

/// What BGEmuKit asks of one emulated device. `HTTPRemoteDevice` speaks bgemu's HTTP API; the library's tests use
/// an in-memory fake. Every call blocks until the service has answered. A refusal of the service is thrown as a
/// ``ServiceProblem``, a failure to reach it as ``BGEmuError/transport(_:)``.
package protocol RemoteDevice: Sendable {
    /// The device's id at the service (`dev_…`).
    var deviceId: String { get }
    func install(_ installation: Installation) throws -> InstalledApp
    /// The user taps the icon; `launchHandlers` are the identifiers registered during this launch (R16).
    func launch(_ bundleId: String, launchHandlers: [String]) throws
    func lifecycle(_ bundleId: String, _ action: LifecycleAction) throws
    /// Moves the clock to `target`, stopping early (when `stopAtAppCode`) right after an instant at which an
    /// app's code runs.
    func advance(to target: Date, stopAtAppCode: Bool) throws -> AdvanceOutcome
    func clockNow() throws -> Date
    func setConditions(_ patch: [String: JSONValue]) throws
    /// The device's events after `after`, oldest first, every page.
    func events(after: Int64) throws -> [DeviceEvent]
    func submit(_ bundleId: String, _ request: TaskRequestBody) throws
    func cancelTaskRequest(_ bundleId: String, identifier: String) throws
    func cancelAllTaskRequests(_ bundleId: String) throws
    func pendingTaskRequests(_ bundleId: String) throws -> [TaskRequestBody]
    func completeRun(_ bundleId: String, runId: String, _ completion: RunCompletion) throws
    /// A continued processing task's progress and, when the app changed them, its title and subtitle (R41).
    func reportProgress(_ bundleId: String, runId: String, _ report: ProgressReport) throws
    /// The user cancels a continued processing task from the system's interface (R41).
    func cancelContinuedProcessing(_ bundleId: String, runId: String) throws
    /// Begins a background task; nil when the device begins none (`UIBackgroundTaskInvalid`, R14).
    func beginBackgroundTask(_ bundleId: String, name: String?) throws -> String?
    func endBackgroundTask(_ bundleId: String, taskId: String) throws
    func setFetchInterval(_ bundleId: String, _ interval: JSONValue) throws
    func appStatus(_ bundleId: String) throws -> AppStatus
    /// Sends an APNs payload to the app, as APNs would deliver it (R29–R31).
    func push(_ payload: [UInt8], topic: String, apnsId: String) throws
    /// Changes the app's own switches in Settings (`PATCH …/settings`): `backgroundAppRefresh` (R18).
    func setAppSettings(_ bundleId: String, _ patch: [String: JSONValue]) throws
    /// The device's conditions now (R25).
    func conditions() throws -> DeviceConditions
    /// Schedules a local notification of the app (`POST …/notifications`, R40).
    func scheduleNotification(_ bundleId: String, _ notification: LocalNotificationBody) throws
    /// Cancels a pending local notification of the app.
    func cancelNotification(_ bundleId: String, identifier: String) throws
}

/// What app code reads of the device's conditions.
package struct DeviceConditions: Sendable, Equatable {
    package var lowPowerMode = false
    /// The device-wide Background App Refresh switch.
    package var backgroundAppRefresh = true
    package var locked = false
}

/// A local notification on the wire: exactly one of `fireDate` and `timeInterval`.
package struct LocalNotificationBody: Sendable, Equatable {
    package var identifier: String
    package var fireDate: Date?
    package var timeInterval: Double?
    package var repeats = false
    package var title: String?
    package var body: String?
}

/// How an app is installed: its real `Info.plist`, or the keys bgemu reads.
package enum Installation: Sendable {
    case infoPlist(Data, bundleId: String)
    case declared(bundleId: String, backgroundModes: [String], permittedIdentifiers: [String])
}

/// An installed app as the service answers it.
package struct InstalledApp: Sendable, Equatable {
    package var bundleId: String
    package var permittedIdentifiers: [String]
    package var backgroundModes: [String]
}

/// The user's and the system's lifecycle actions.
package enum LifecycleAction: String, Sendable {
    case background, foreground, forceQuit = "force-quit", terminate
}

/// The clock after one advance.
package struct AdvanceOutcome: Sendable, Equatable {
    package var now: Date
    /// True when the advance stopped before its target because an app's code ran.
    package var stopped: Bool
}

/// A task request on the wire, its date in the device's virtual time.
package struct TaskRequestBody: Sendable, Equatable {
    package var kind: String
    package var identifier: String
    package var earliestBeginDate: Date?
    package var requiresNetworkConnectivity = false
    package var requiresExternalPower = false
    /// A continued processing request's options (R41).
    package var continued: ContinuedRequestBody?
}

/// What a continued processing request carries on the wire (R41).
package struct ContinuedRequestBody: Sendable, Equatable {
    package var title: String
    package var subtitle: String
    /// `fail` or `queue`.
    package var strategy: String
    package var requiresGPU: Bool
}

/// A continued processing task's progress report (R41); a nil title or subtitle keeps the last one.
package struct ProgressReport: Sendable, Equatable {
    package var completedUnitCount: Int64
    package var totalUnitCount: Int64
    package var title: String?
    package var subtitle: String?
}

/// How app code ends a run.
package enum RunCompletion: Sendable, Equatable {
    /// `setTaskCompleted(success:)` and the URL session's completion handler.
    case success(Bool)
    /// A fetch or silent push's completion handler.
    case fetchResult(String)
}

/// What `UIApplication` reads of its app.
package struct AppStatus: Sendable, Equatable {
    package var state: String
    package var backgroundTimeRemaining: Double?
    /// The app's own Background App Refresh switch.
    package var backgroundAppRefresh = true
}
