import BGEmuClient
import Foundation

/// JUnit XML as CI systems read it: one `<testsuite>` per file, one `<testcase>` per expectation (and per failed
/// step), `<failure>` with the message and the deciding events, `<error>` when the file did not run.
enum JUnitReport {
    static func xml(_ outcomes: [ScenarioOutcome]) -> String {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let tests = outcomes.reduce(0) { $0 + max(1, $1.expectations.count + $1.failedSteps.count) }
        let failures = outcomes.reduce(0) {
            $0 + $1.failedExpectations.count + $1.failedSteps.count
        }
        let errors = outcomes.filter { $0.error != nil }.count
        let time = outcomes.reduce(0) { $0 + $1.seconds }
        out += #"<testsuites name="bgemu scenarios" tests="\#(tests)" failures="\#(failures)" errors="\#(errors)" time="\#(seconds(time))">"#
        out += "\n"
        for outcome in outcomes {
            let suiteFailures = outcome.failedExpectations.count + outcome.failedSteps.count
            let suiteTests = max(1, outcome.expectations.count + outcome.failedSteps.count)
            out += #"  <testsuite name="\#(XMLText.escape(outcome.scenarioName))" tests="\#(suiteTests)" failures="\#(suiteFailures)" "#
                + #"errors="\#(outcome.error == nil ? 0 : 1)" time="\#(seconds(outcome.seconds))" file="\#(XMLText.escape(outcome.file))">"#
            out += "\n"
            if let deviceId = outcome.deviceId {
                out += #"    <properties><property name="deviceId" value="\#(XMLText.escape(deviceId))"/></properties>"# + "\n"
            }
            let classname = XMLText.escape(outcome.name)
            if let error = outcome.error {
                out += #"    <testcase classname="\#(classname)" name="run">"# + "\n"
                out += #"      <error message="\#(XMLText.escape(error))">\#(XMLText.escape(error))</error>"# + "\n"
                out += "    </testcase>\n"
            }
            for step in outcome.failedSteps {
                let name = "step \(ScenarioOutcome.text(step["index"], "?")) \(ScenarioOutcome.text(step["action"]))"
                let message = step["error"]?.stringValue ?? "the step failed"
                out += #"    <testcase classname="\#(classname)" name="\#(XMLText.escape(name))">"# + "\n"
                out += #"      <failure message="\#(XMLText.escape(message))">\#(XMLText.escape(message))</failure>"# + "\n"
                out += "    </testcase>\n"
            }
            for expectation in outcome.expectations {
                let name = "[\(ScenarioOutcome.text(expectation["index"], "?"))] \(ScenarioOutcome.text(expectation["description"]))"
                out += #"    <testcase classname="\#(classname)" name="\#(XMLText.escape(name))">"#
                if expectation["passed"]?.boolValue == true {
                    out += "</testcase>\n"
                    continue
                }
                let message = expectation["message"]?.stringValue ?? "failed"
                let events = (expectation["events"]?.arrayValue ?? []).map(describe).joined(separator: "\n")
                out += "\n" + #"      <failure message="\#(XMLText.escape(message))">\#(XMLText.escape(message + (events.isEmpty ? "" : "\n" + events)))</failure>"#
                out += "\n    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// `t=600s backgroundTask.ended com.example.counter {"reason":"expired"}`.
    static func describe(_ event: JSONValue) -> String {
        let t = event["t"]?.numberValue.map { seconds($0) } ?? "?"
        var text = "t=\(t)s \(event["type"]?.stringValue ?? "?")"
        if let bundleId = event["bundleId"]?.stringValue { text += " \(bundleId)" }
        if let data = event["data"] { text += " " + data.text }
        return text
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }
}
