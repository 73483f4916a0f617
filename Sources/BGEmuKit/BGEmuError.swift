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

/// A refusal of the service: its status and the problem's `code` and `detail`.
public struct ServiceProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The HTTP status (`409`, `422`, …).
    public var status: Int
    /// The problem's `code` (`appNotRunning`, `notInForeground`, `validationFailed`, …).
    public var code: String?
    /// The service's explanation, for people.
    public var detail: String?
    /// The fields named by a `422`.
    public var fields: [String]

    /// A problem with these parts.
    public init(status: Int, code: String?, detail: String?, fields: [String] = []) {
        self.status = status
        self.code = code
        self.detail = detail
        self.fields = fields
    }

    public var description: String { "\(status) \(code ?? "")\(detail.map { ": \($0)" } ?? "")" }

    /// Reads a problem body; an unreadable one keeps only the status.
    init(status: Int, body: [UInt8]) {
        let json = (try? JSONValue.parse(body)) ?? .null
        let fields = json["errors"]?.arrayValue?.compactMap { $0["field"]?.stringValue } ?? []
        self.init(status: status, code: json["code"]?.stringValue, detail: json["detail"]?.stringValue, fields: fields)
    }
}
