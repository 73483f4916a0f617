import ArgumentParser

/// `bgemu keys …`: API keys for operators.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Manage tenants' API keys.", subcommands: [KeysCreateCommand.self])
}
