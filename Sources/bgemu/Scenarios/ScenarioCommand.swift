import ArgumentParser
import Foundation
import BGEmuClient

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
            let client: APIClient
            do { client = try self.client.client() } catch let failure as ClientFailure {
                Terminal.error(CommandFailure.service(failure).message)
                throw ExitCode(2)
            }
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

        func runOne(_ file: String, _ client: APIClient) -> ScenarioOutcome {
            let started = Date()
            var outcome = ScenarioOutcome(file: file, name: URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
            do {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                outcome.report = try client.runScenario(Array(bytes))
            } catch ClientFailure.refused(let problem) {
                outcome.error = "HTTP \(problem.status)" + (problem.detail.map { ": \($0)" } ?? "")
            } catch let failure as ClientFailure {
                outcome.error = "\(failure)"
            } catch {
                outcome.error = "cannot read \(file): \(error.localizedDescription)"
            }
            outcome.seconds = Date().timeIntervalSince(started)
            return outcome
        }
    }
}

