import ArgumentParser
import BGEmuClient

/// `bgemu eligibility DEVICE BUNDLE_ID IDENTIFIER`: whether a pending request would run at the next opportunity,
/// each condition with its rule, as a table (`GET …/task-requests/{identifier}/eligibility`, R25–R26).
struct EligibilityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eligibility",
        abstract: "Explain whether a pending task request would run, condition by condition.",
        discussion: """
            Prints each condition the system weighs, in its order, with its rule and whether it is met, then when \
            the next system opportunity comes and, for an app refresh request, when the predictive engine will \
            launch the app. Changes nothing.
            """)

    @OptionGroup var client: ClientOptions
    @OptionGroup var task: TaskArguments
    @Flag(help: "Print the service's answer as JSON.") var json = false

    func run() throws {
        try CommandFailure.reporting(hints: ["notFound": "no pending request with this identifier: bgemu submit it first"]) {
            let answer = try client.client().eligibility(task.device, task.bundleId, identifier: task.identifier)
            if json { return Terminal.line(answer.text) }
            Self.lines(answer).forEach(Terminal.line)
        }
    }

    /// The table and its summary lines.
    static func lines(_ answer: JSONValue) -> [String] {
        let eligible = answer["eligible"]?.boolValue == true
        var lines = ["\(answer["kind"]?.stringValue ?? "?") \(answer["identifier"]?.stringValue ?? "?"): "
            + (eligible ? "eligible" : "not eligible")]
        var rows = [["", "CONDITION", "RULE", "DETAIL"]]
        for condition in answer["conditions"]?.arrayValue ?? [] {
            rows.append([
                condition["met"]?.boolValue == true ? "✔" : "✘", condition["name"]?.stringValue ?? "?",
                condition["rule"]?.stringValue ?? "", condition["detail"]?.stringValue ?? "",
            ])
        }
        lines += Terminal.table(rows)
        lines.append("next opportunity: \(answer["nextOpportunityAt"]?.stringValue ?? "none")")
        if let first = answer["firstRunAt"]?.stringValue {
            lines.append("first run of this request: \(first) (bgemu advance DEVICE --to \(first))")
        } else if let blockers = answer["blockedBy"]?.stringsValue, !blockers.isEmpty {
            lines.append("blocked until one changes: \(blockers.joined(separator: ", "))")
        } else {
            lines.append("first run of this request: none within 30 days")
        }
        if let predicted = answer["predictedLaunchAt"]?.stringValue { lines.append("predicted launch: \(predicted)") }
        return lines
    }
}
