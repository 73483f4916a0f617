import Emulation
import HTTPServer

/// The build settings an app upload's query gives: `bundleId=…` (`PRODUCT_BUNDLE_IDENTIFIER`) and repeated
/// `setting=NAME=VALUE`, the highest level of precedence.
struct UploadSettings {
    /// The most settings one upload may give, from the query and a `buildSettings` object each.
    static let maximumCount = 500
    /// The longest value one setting may have.
    static let maximumValueLength = 4096

    /// `?bundleId=`, when given.
    var bundleId: String?
    var level: BuildSettings.Level

    /// No settings (a scenario's install step).
    init() { level = BuildSettings.Level(source: "query", values: [:]) }

    init(_ request: HTTPRequest) throws {
        var values: [String: String] = [:]
        var issues: [FieldIssue] = []
        let items = request.queryItems
        for item in items where item.name == "setting" {
            guard let equals = item.value.firstIndex(of: "=") else {
                issues.append(FieldIssue("setting", "\"\(item.value.prefix(100))\" is not NAME=VALUE"))
                continue
            }
            let name = String(item.value[..<equals]), value = String(item.value[item.value.index(after: equals)...])
            if let problem = Self.problem(name: name, value: value) { issues.append(FieldIssue("setting", problem)) }
            values[name] = value
        }
        if let bundleId = items.last(where: { $0.name == "bundleId" })?.value {
            if let problem = AppInstallation.bundleIdProblem(bundleId) { issues.append(FieldIssue("bundleId", problem)) }
            values["PRODUCT_BUNDLE_IDENTIFIER"] = bundleId
            self.bundleId = bundleId
        }
        if values.count > Self.maximumCount {
            issues.append(FieldIssue("setting", "at most \(Self.maximumCount) settings"))
        }
        guard issues.isEmpty else { throw EmulationError.invalid(issues) }
        level = BuildSettings.Level(source: "query", values: values)
    }

    /// Why `NAME` = `value` cannot be a build setting, or nil.
    static func problem(name: String, value: String) -> String? {
        guard !name.isEmpty, name.utf8.count <= 255, BuildSettings.isSettingName(name) else {
            return "\"\(name.prefix(100))\" is not a build setting name (a letter or _, then letters, digits and _)"
        }
        if value.utf8.count > maximumValueLength { return "\(name) is longer than \(maximumValueLength) bytes" }
        return nil
    }

}
