import ArgumentParser

/// The `bgemu` command: `bgemu serve` (the default) runs the service.
@main
struct BGEmu: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bgemu",
        abstract: "An emulator of iOS background execution, served over HTTP.",
        subcommands: [Serve.self, ScenarioCommand.self],
        defaultSubcommand: Serve.self)
}
