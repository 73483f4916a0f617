import ArgumentParser
import BGEmuClient

/// `bgemu simulate-launch DEVICE BUNDLE_ID IDENTIFIER`: the debugger's `_simulateLaunchForTaskWithIdentifier:`
/// (`POST …/task-requests/{identifier}/simulate-launch`, R24).
struct SimulateLaunchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate-launch",
        abstract: "Run a pending task request now, as the debugger's _simulateLaunchForTaskWithIdentifier: does.",
        discussion: """
            The pending request runs now, whatever the conditions and budgets (R24); a terminated app is launched \
            into the background for it. Prints the run's id, for `bgemu complete DEVICE RUN`.
            """)

    @OptionGroup var client: ClientOptions
    @OptionGroup var task: TaskArguments
    @Flag(help: "Print the run as JSON.") var json = false

    func run() throws {
        try CommandFailure.reporting(hints: ["notFound": "no pending request with this identifier: bgemu submit it first"]) {
            let run = try client.client().simulateLaunch(task.device, task.bundleId, identifier: task.identifier)
            if json { return Terminal.line(run.text) }
            Terminal.line("launched \(task.identifier) for \(task.bundleId) on \(task.device): run \(run["id"]?.stringValue ?? "?")")
        }
    }
}

/// `bgemu simulate-expiration DEVICE BUNDLE_ID IDENTIFIER`: the debugger's
/// `_simulateExpirationForTaskWithIdentifier:` (`POST …/task-requests/{identifier}/simulate-expiration`, R24).
struct SimulateExpirationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate-expiration",
        abstract: "Expire a running task now, as the debugger's _simulateExpirationForTaskWithIdentifier: does.",
        discussion: """
            The running task of this identifier is told to expire now (its expirationHandler, R24); if the app does \
            not complete it within the grace the system ends it (R22).
            """)

    @OptionGroup var client: ClientOptions
    @OptionGroup var task: TaskArguments
    @Flag(help: "Print the run as JSON.") var json = false

    func run() throws {
        try CommandFailure.reporting(hints: ["notFound": "no task of this identifier is running: bgemu simulate-launch it first"]) {
            let run = try client.client().simulateExpiration(task.device, task.bundleId, identifier: task.identifier)
            if json { return Terminal.line(run.text) }
            Terminal.line("told \(task.identifier) of \(task.bundleId) on \(task.device) to expire: run \(run["id"]?.stringValue ?? "?") "
                + (run["state"]?.stringValue ?? ""))
        }
    }
}
