/// Expands the build settings in every string of a property list, recursively through arrays and dictionaries,
/// and remembers where a reference could not be resolved.
struct PropertyListExpansion {
    /// A reference nothing resolves, at a path such as `BGTaskSchedulerPermittedIdentifiers[1]`.
    struct Unresolved: Equatable {
        var path: String
        var setting: String
    }

    let settings: BuildSettings
    private(set) var unresolved: [Unresolved] = []

    init(settings: BuildSettings) { self.settings = settings }

    /// The value with its strings expanded; keys are left as written, as Xcode leaves them.
    mutating func expand(_ value: Any, path: String) -> Any {
        switch value {
        case let text as String:
            guard text.contains("$") else { return text }
            let expansion = settings.expand(text)
            unresolved += expansion.unresolved.map { Unresolved(path: path, setting: $0) }
            return expansion.value
        case let array as [Any]:
            return array.enumerated().map { expand($0.element, path: "\(path)[\($0.offset)]") }
        case let dict as [String: Any]:
            var out: [String: Any] = [:]
            for key in dict.keys.sorted() { out[key] = expand(dict[key]!, path: "\(path).\(key)") }
            return out
        default:
            return value
        }
    }
}
