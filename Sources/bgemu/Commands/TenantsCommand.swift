import ArgumentParser

/// `bgemu tenants …`: an operator's tenants across shards.
struct TenantsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenants",
        abstract: "Create, place and list tenants across shards.",
        subcommands: [TenantsCreateCommand.self, TenantsPlaceCommand.self, TenantsListCommand.self])
}
