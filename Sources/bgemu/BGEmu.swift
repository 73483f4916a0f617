import ArgumentParser

/// The `bgemu` command: `bgemu serve` (the default) runs the service; the other commands call a running one, with
/// the verbs of `xcrun simctl`, or work on its database file (`keys create`).
@main
struct BGEmu: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bgemu",
        abstract: "An emulator of iOS background execution, served over HTTP.",
        subcommands: [
            Serve.self, CreateCommand.self, DevicesCommand.self, InstallCommand.self, LaunchCommand.self,
            HomeCommand.self, ForegroundCommand.self, TerminateCommand.self, SubmitCommand.self,
            SimulateLaunchCommand.self, SimulateExpirationCommand.self, CompleteCommand.self, EligibilityCommand.self,
            PushCommand.self, AdvanceCommand.self, EventsCommand.self, ScenarioCommand.self, KeysCommand.self,
            ForecastCommand.self, TenantsCommand.self,
        ],
        defaultSubcommand: Serve.self)
}
