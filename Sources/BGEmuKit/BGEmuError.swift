import BGEmuClient
/// What can fail in BGEmuKit besides the refusals iOS itself gives (those are `BGTaskScheduler.Error`).
public enum BGEmuError: Error, Equatable, CustomStringConvertible {
    /// The service could not be reached, or its answer could not be read: a problem of the test's setup, never
    /// something iOS would do.
    case transport(String)
    /// The service refused a call with a problem (`application/problem+json`): the harness asked for something the
    /// device's state does not allow (a `moveToBackground` of an app that is not in the foreground, say).
    case problem(ServiceProblem)
    /// The app crashed, as iOS crashes an app that submits a request for an identifier it registered no launch
    /// handler for at launch (R16); the service terminated it.
    case appCrashed(String)
    /// Neither an argument nor `BGEMU_URL` / `BGEMU_API_KEY` says which service to use.
    case notConfigured(String)
    /// App code was still at work when ``EmulatedDevice/settle(timeout:isolation:)`` timed out: what stayed open
    /// (`com.example.app: run run_1`).
    case stillBusy(String)

    public var description: String {
        switch self {
        case .transport(let what): "bgemu could not be reached: \(what)"
        case .problem(let problem): "bgemu refused: \(problem)"
        case .appCrashed(let reason): "the app crashed: \(reason)"
        case .notConfigured(let what): "BGEmuKit is not configured: \(what)"
        case .stillBusy(let what): "the app's code was still at work: \(what)"
        }
    }
}

/// A refusal of the service: its status and the problem's `code` and `detail` (the client's one problem type).
public typealias ServiceProblem = BGEmuClient.ServiceProblem

/// A JSON value as the service sends it: an event's `data`, a problem's fields (the client's exact JSON).
public typealias JSONValue = BGEmuClient.JSONValue
