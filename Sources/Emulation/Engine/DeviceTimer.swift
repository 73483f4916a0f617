/// A timer on a device's virtual clock. Timers fire in order of `due`, ties in order of creation (`seq`).
public struct DeviceTimer: Sendable, Codable, Equatable {
    public var seq: Int64
    public var due: VirtualInstant
    public var kind: Kind

    public enum Kind: Sendable, Codable, Equatable {
        /// The time for `applicationDidEnterBackground` is over: suspend unless something holds the app (R2).
        case lifecycleGraceEnd(bundleId: String)
        /// The expiration handlers of open background tasks are called (R11).
        case allowanceWarning(bundleId: String)
        /// The allowance is spent: open tasks get the app terminated (R12).
        case allowanceEnd(bundleId: String)
        /// A run's deadline: its expiration handler is called (R22).
        case runDeadline(bundleId: String, runId: String)
        /// A run's grace period is over: it is marked failed and the app terminated (R22).
        case runGraceEnd(bundleId: String, runId: String)
        /// A scripted app completes its run.
        case scriptedRunCompletion(bundleId: String, runId: String)
        /// A scripted app ends its background task.
        case scriptedTaskEnd(bundleId: String, taskId: String)
        /// A system opportunity for discretionary launches (R26).
        case opportunity
        /// Shortly before the user usually opens the app: its refresh may run (R26).
        case predictedUsage(bundleId: String)
        /// A local notification's fire date (R40).
        case localNotification(bundleId: String, identifier: String)
        /// A transfer crosses a progress threshold, finishes or may start (R32, R34); it outlives the app's process.
        case transfer(bundleId: String, transferId: String)
        /// The VoIP keep-alive handler is due (R37).
        case voipKeepAlive(bundleId: String)
        /// A deferred push reaches its `apns-expiration`: APNs discards it (R30).
        case pushExpiration(bundleId: String, apnsId: String)

        var bundleId: String? {
            switch self {
            case .lifecycleGraceEnd(let b), .allowanceWarning(let b), .allowanceEnd(let b), .predictedUsage(let b): b
            case .runDeadline(let b, _), .runGraceEnd(let b, _), .scriptedRunCompletion(let b, _), .scriptedTaskEnd(let b, _): b
            case .localNotification(let b, _): b
            case .transfer(let b, _): b
            case .voipKeepAlive(let b): b
            case .pushExpiration(let b, _): b
            case .opportunity: nil
            }
        }
    }
}
