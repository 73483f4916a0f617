extension BackgroundMode {
    /// The issues of a `UIBackgroundModes` list; each `field` is the index suffix (`[2]`).
    public struct ValidationFailure: Error, Sendable {
        public var issues: [FieldIssue]
    }

    /// Parses a declared list against `BackgroundMode.all`; repeated values are kept once.
    public static func validate(_ values: [String]) -> Result<[BackgroundMode], ValidationFailure> {
        var issues: [FieldIssue] = []
        var modes: [BackgroundMode] = []
        let valid = all.map(\.rawValue).joined(separator: ", ")
        for (index, value) in values.enumerated() {
            let mode = BackgroundMode(value)
            if !mode.isKnown {
                issues.append(FieldIssue("[\(index)]", "unknown background mode \"\(value)\"; valid values: \(valid)"))
            } else if !modes.contains(mode) {
                modes.append(mode)
            }
        }
        return issues.isEmpty ? .success(modes) : .failure(ValidationFailure(issues: issues))
    }
}
