import ArgumentParser
import BGEmuClient

/// `bgemu complete DEVICE RUN [--failure]`: the app's code completes a run (`setTaskCompleted(success:)`, a fetch's
/// completion handler; `POST …/runs/{runId}/complete`, R23).
struct CompleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "complete",
        abstract: "Complete a run, as the app's setTaskCompleted(success:) or completion handler does.",
        discussion: """
            RUN is the run's id (run_…), as `bgemu events` and `bgemu simulate-launch` print it; the app is the \
            run's own. A task run is completed with success true (--failure: false); a fetch or silent push run \
            with the result newData (--result to choose). The app is suspended once nothing else holds it (R23).
            """)

    @OptionGroup var client: ClientOptions
    @Argument(help: "The device's id (dev_…).") var device: String
    @Argument(help: ArgumentHelp("The run's id (run_…).", valueName: "run")) var runId: String
    @Flag(help: "setTaskCompleted(success: false).") var failure = false
    @Option(help: "A fetch or silent push run's UIBackgroundFetchResult: newData, noData or failed.") var result: String?
    @Flag(help: "Print the run as JSON.") var json = false

    func validate() throws {
        if let result, !["newData", "noData", "failed"].contains(result) {
            throw ValidationError("--result must be newData, noData or failed.")
        }
        if failure, result != nil { throw ValidationError("Give --failure or --result, not both.") }
    }

    func run() throws {
        try CommandFailure.reporting {
            let service = try client.client()
            guard let bundleId = try service.appOfRun(device, run: runId) else {
                throw CommandFailure.local("device \(device) has no run \(runId) (bgemu events \(device) --type run. lists them)")
            }
            let body: JSONValue = result.map { ["result": .string($0)] } ?? ["success": .bool(!failure)]
            let completed = try service.completeRun(device, bundleId, run: runId, body)
            if json { return Terminal.line(completed.text) }
            Terminal.line("completed \(runId) of \(bundleId) on \(device)"
                + (completed["state"]?.stringValue.map { ": \($0)" } ?? ""))
        }
    }
}
