/// What a build setting given by a client may be: one rule for an upload's `?setting=NAME=VALUE`, its JSON
/// `buildSettings` and `.xcconfig` files, and a forecast's `app.buildSettings`.
extension BuildSettings {
    /// The most settings a client gives in one place (an upload's query, a `buildSettings` object).
    public static let maximumClientSettings = 500
    /// The longest name a client's setting may have, in UTF-8 bytes.
    public static let maximumClientSettingNameLength = 255
    /// The longest value a client's setting may have, in UTF-8 bytes.
    public static let maximumClientSettingValueLength = 4096

    /// Why `name` = `value` cannot be a build setting given by a client, or nil: the name is a setting's name
    /// (a letter or `_`, then letters, digits and `_`; at most 255 bytes) and the value at most 4,096 bytes.
    public static func clientSettingProblem(name: String, value: String) -> String? {
        guard !name.isEmpty, name.utf8.count <= maximumClientSettingNameLength, isSettingName(name) else {
            return "\"\(name.prefix(100))\" is not a build setting name (a letter or _, then letters, digits and _)"
        }
        if value.utf8.count > maximumClientSettingValueLength {
            return "\(name) is longer than \(maximumClientSettingValueLength) bytes"
        }
        return nil
    }

    /// Every problem of a `buildSettings` object a client gives at `field` (`buildSettings`, `app.buildSettings`):
    /// too many settings, then each bad setting by name (`field.NAME`; `field` itself for an empty name), in order.
    public static func clientSettingIssues(_ settings: [String: String], field: String) -> [FieldIssue] {
        var issues: [FieldIssue] = []
        if settings.count > maximumClientSettings {
            issues.append(FieldIssue(field, "at most \(maximumClientSettings) settings"))
        }
        for (name, value) in settings.sorted(by: { $0.key < $1.key }) {
            if let problem = clientSettingProblem(name: name, value: value) {
                issues.append(FieldIssue(name.isEmpty ? field : field + "." + name, problem))
            }
        }
        return issues
    }
}
