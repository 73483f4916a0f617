import ArgumentParser
import Foundation
import BGEmuHTTP

/// `bgemu scenario run FILE…`: runs scenario files against a bgemu service and reports like a test runner.
struct ScenarioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario", abstract: "Run scenario files against a bgemu service.", subcommands: [Run.self])

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run scenario files (POST /v1/scenarios/run); exit 1 when any expectation fails, 2 on errors.")

        @Argument(help: "Scenario files (JSON).")
        var files: [String]

        @OptionGroup var client: ClientOptions

        @Option(help: "Write a JUnit XML report to this file.")
        var junit: String?

        @Flag(help: "Print every expectation, not only the failed ones.")
        var verbose = false

        func run() throws {
            let client = try HTTPClient(base: self.client.resolvedServer, apiKey: try self.client.resolvedKey())
            var outcomes: [ScenarioOutcome] = []
            for file in files {
                let outcome = runOne(file, client)
                print(outcome.summary(verbose: verbose))
                outcomes.append(outcome)
            }
            let failed = outcomes.filter { !$0.passed }.count
            print("\(outcomes.count - failed) of \(outcomes.count) scenario\(outcomes.count == 1 ? "" : "s") passed.")
            if let junit {
                try Data(JUnitReport.xml(outcomes).utf8).write(to: URL(fileURLWithPath: junit))
            }
            if outcomes.contains(where: { $0.error != nil }) { throw ExitCode(2) }
            if failed > 0 { throw ExitCode(1) }
        }

        func runOne(_ file: String, _ client: HTTPClient) -> ScenarioOutcome {
            let started = Date()
            var outcome = ScenarioOutcome(file: file, name: URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
            do {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                let response = try client.post("/v1/scenarios/run", json: Array(bytes))
                let json = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
                guard response.status == 200 else {
                    var message = "HTTP \(response.status)"
                    if let detail = json["detail"] as? String { message += ": \(detail)" }
                    outcome.error = message
                    outcome.seconds = Date().timeIntervalSince(started)
                    return outcome
                }
                outcome.report = json
            } catch {
                outcome.error = "\(error)"
            }
            outcome.seconds = Date().timeIntervalSince(started)
            return outcome
        }
    }
}

/// One scenario file's run: the service's report, or why there is none.
struct ScenarioOutcome {
    var file: String
    var name: String
    var report: [String: Any]?
    var error: String?
    var seconds: Double = 0

    var passed: Bool { error == nil && report?["passed"] as? Bool == true }
    var scenarioName: String { report?["scenario"] as? String ?? name }
    var expectations: [[String: Any]] { report?["expectations"] as? [[String: Any]] ?? [] }
    var failedSteps: [[String: Any]] { (report?["steps"] as? [[String: Any]] ?? []).filter { $0["ok"] as? Bool == false } }

    func summary(verbose: Bool) -> String {
        if let error { return "✘ \(file): \(error)" }
        var lines = ["\(passed ? "✔" : "✘") \(scenarioName) (\(file), device \(report?["deviceId"] as? String ?? "?"))"]
        for step in failedSteps {
            lines.append("    ✘ step \(step["index"] ?? "?") \(step["action"] ?? ""): \(step["error"] as? String ?? "")")
        }
        for expectation in expectations where verbose || expectation["passed"] as? Bool != true {
            let mark = expectation["passed"] as? Bool == true ? "✔" : "✘"
            lines.append("    \(mark) [\(expectation["index"] ?? "?")] \(expectation["description"] as? String ?? ""): "
                + (expectation["message"] as? String ?? ""))
            if expectation["passed"] as? Bool != true {
                for event in (expectation["events"] as? [[String: Any]] ?? []).prefix(5) {
                    lines.append("        \(JUnitReport.describe(event))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// JUnit XML as CI systems read it: one `<testsuite>` per file, one `<testcase>` per expectation (and per failed
/// step), `<failure>` with the message and the deciding events, `<error>` when the file did not run.
enum JUnitReport {
    static func xml(_ outcomes: [ScenarioOutcome]) -> String {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let tests = outcomes.reduce(0) { $0 + max(1, $1.expectations.count + $1.failedSteps.count) }
        let failures = outcomes.reduce(0) {
            $0 + $1.expectations.filter { $0["passed"] as? Bool != true }.count + $1.failedSteps.count
        }
        let errors = outcomes.filter { $0.error != nil }.count
        let time = outcomes.reduce(0) { $0 + $1.seconds }
        out += #"<testsuites name="bgemu scenarios" tests="\#(tests)" failures="\#(failures)" errors="\#(errors)" time="\#(seconds(time))">"#
        out += "\n"
        for outcome in outcomes {
            let suiteFailures = outcome.expectations.filter { $0["passed"] as? Bool != true }.count + outcome.failedSteps.count
            let suiteTests = max(1, outcome.expectations.count + outcome.failedSteps.count)
            out += #"  <testsuite name="\#(escape(outcome.scenarioName))" tests="\#(suiteTests)" failures="\#(suiteFailures)" "#
                + #"errors="\#(outcome.error == nil ? 0 : 1)" time="\#(seconds(outcome.seconds))" file="\#(escape(outcome.file))">"#
            out += "\n"
            if let deviceId = outcome.report?["deviceId"] as? String {
                out += #"    <properties><property name="deviceId" value="\#(escape(deviceId))"/></properties>"# + "\n"
            }
            let classname = escape(outcome.name)
            if let error = outcome.error {
                out += #"    <testcase classname="\#(classname)" name="run">"# + "\n"
                out += #"      <error message="\#(escape(error))">\#(escape(error))</error>"# + "\n"
                out += "    </testcase>\n"
            }
            for step in outcome.failedSteps {
                let name = "step \(step["index"] ?? "?") \(step["action"] as? String ?? "")"
                let message = step["error"] as? String ?? "the step failed"
                out += #"    <testcase classname="\#(classname)" name="\#(escape(name))">"# + "\n"
                out += #"      <failure message="\#(escape(message))">\#(escape(message))</failure>"# + "\n"
                out += "    </testcase>\n"
            }
            for expectation in outcome.expectations {
                let name = "[\(expectation["index"] ?? "?")] \(expectation["description"] as? String ?? "")"
                out += #"    <testcase classname="\#(classname)" name="\#(escape(name))">"#
                if expectation["passed"] as? Bool == true {
                    out += "</testcase>\n"
                    continue
                }
                let message = expectation["message"] as? String ?? "failed"
                let events = (expectation["events"] as? [[String: Any]] ?? []).map(describe).joined(separator: "\n")
                out += "\n" + #"      <failure message="\#(escape(message))">\#(escape(message + (events.isEmpty ? "" : "\n" + events)))</failure>"#
                out += "\n    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// `t=600s backgroundTask.ended com.example.counter {"reason":"expired"}`.
    static func describe(_ event: [String: Any]) -> String {
        let t = (event["t"] as? Double).map { seconds($0) } ?? "?"
        var text = "t=\(t)s \(event["type"] as? String ?? "?")"
        if let bundleId = event["bundleId"] as? String { text += " \(bundleId)" }
        if let data = event["data"], let json = try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys]) {
            text += " " + String(decoding: json, as: UTF8.self)
        }
        return text
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            default:
                // XML 1.0 allows no other control characters.
                if scalar.value < 0x20 { out += "?" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
