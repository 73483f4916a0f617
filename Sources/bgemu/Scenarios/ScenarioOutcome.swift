import BGEmuClient

/// One scenario file's run: the service's report, or why there is none.
struct ScenarioOutcome {
    var file: String
    var name: String
    var report: JSONValue?
    var error: String?
    var seconds: Double = 0

    var passed: Bool { error == nil && report?["passed"]?.boolValue == true }
    var scenarioName: String { report?["scenario"]?.stringValue ?? name }
    var deviceId: String? { report?["deviceId"]?.stringValue }
    var expectations: [JSONValue] { report?["expectations"]?.arrayValue ?? [] }
    var failedSteps: [JSONValue] { (report?["steps"]?.arrayValue ?? []).filter { $0["ok"]?.boolValue == false } }
    var failedExpectations: [JSONValue] { expectations.filter { $0["passed"]?.boolValue != true } }

    func summary(verbose: Bool) -> String {
        if let error { return "✘ \(file): \(error)" }
        var lines = ["\(passed ? "✔" : "✘") \(scenarioName) (\(file), device \(deviceId ?? "?"))"]
        for step in failedSteps {
            lines.append("    ✘ step \(Self.text(step["index"])) \(Self.text(step["action"])): \(step["error"]?.stringValue ?? "")")
        }
        for expectation in expectations where verbose || expectation["passed"]?.boolValue != true {
            let passed = expectation["passed"]?.boolValue == true
            lines.append("    \(passed ? "✔" : "✘") [\(Self.text(expectation["index"], "?"))] \(Self.text(expectation["description"])): "
                + (expectation["message"]?.stringValue ?? ""))
            if !passed {
                for event in (expectation["events"]?.arrayValue ?? []).prefix(5) {
                    lines.append("        \(JUnitReport.describe(event))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A report's value as text: a string as it is, a number without a needless fraction, nothing as `fallback`.
    static func text(_ value: JSONValue?, _ fallback: String = "") -> String {
        switch value {
        case .string(let text)?: text
        case .number(let number)?: number.description
        case nil, .null?: fallback
        case let other?: other.text
        }
    }
}
