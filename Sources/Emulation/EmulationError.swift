/// A request the emulation refuses, in domain words; the API layer maps each case to a problem.
public enum EmulationError: Error, Equatable, Sendable {
    /// One or more fields are invalid.
    case invalid([FieldIssue])
    /// The named thing does not exist (`kind` is `device`, `app`, …).
    case notFound(kind: String, id: String)
    /// The request conflicts with the current state; `code` is a stable word such as `alreadyInstalled`.
    /// Nothing it did is kept.
    case conflict(code: String, detail: String)
    /// The emulated system refused the call the way iOS does (`notPermitted`, `noLaunchHandler`, …). Unlike
    /// `conflict`, what the refusal caused (a `taskRequest.rejected` event, a crash) happened and is kept.
    case refused(code: String, detail: String)
    /// The request is well-formed but its values cannot be used (a clock advance beyond the bound).
    case unprocessable(field: String, detail: String)
}

/// One invalid field, by its JSON path (`conditions.batteryLevel`).
public struct FieldIssue: Equatable, Sendable {
    public var field: String
    public var message: String
    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }
}
