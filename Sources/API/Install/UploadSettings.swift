import Emulation
import HTTPServer

/// The build settings an app upload's query gives: `bundleId=…` (`PRODUCT_BUNDLE_IDENTIFIER`) and repeated
/// `setting=NAME=VALUE`, the highest level of precedence.
///
/// Each setting, and how many there are, is checked by the rule every client's setting follows
/// (``BuildSettings/clientSettingProblem(name:value:)``).
struct UploadSettings {
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
            if let problem = BuildSettings.clientSettingProblem(name: name, value: value) {
                issues.append(FieldIssue("setting", problem))
            }
            values[name] = value
        }
        if let bundleId = items.last(where: { $0.name == "bundleId" })?.value {
            if let problem = AppInstallation.bundleIdProblem(bundleId) { issues.append(FieldIssue("bundleId", problem)) }
            values["PRODUCT_BUNDLE_IDENTIFIER"] = bundleId
            self.bundleId = bundleId
        }
        if values.count > BuildSettings.maximumClientSettings {
            issues.append(FieldIssue("setting", "at most \(BuildSettings.maximumClientSettings) settings"))
        }
        guard issues.isEmpty else { throw EmulationError.invalid(issues) }
        level = BuildSettings.Level(source: "query", values: values)
    }
}
