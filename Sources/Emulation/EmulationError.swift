/// A request the emulation refuses, in domain words; the API layer maps each case to a problem.
public enum EmulationError: Error, Equatable, Sendable {
    /// One or more fields are invalid.
    case invalid([FieldIssue])
    /// The named thing does not exist (`kind` is `device`, `app`, …).
    case notFound(kind: String, id: String)
    /// The request conflicts with the current state; `code` is a stable word such as `alreadyInstalled`.
    case conflict(code: String, detail: String)
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
