import ArgumentParser
import BGEmuClient
import Foundation

/// `bgemu tenants …`: tenants across shards, through the admin routes (issue 30): `create` one on a shard and
/// `place` it in HAProxy's map, `list` them across shards, and `move` one between shards, or its steps one by one:
/// `fence`, `export`, `import`, `place`, then `DELETE /v1/admin/tenants/{id}` on the source.
struct TenantsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenants", abstract: "Create, place, list and move tenants across shards.",
        subcommands: [
            TenantsCreateCommand.self, TenantsPlaceCommand.self, TenantsListCommand.self, TenantsMoveCommand.self,
            TenantsExportCommand.self, TenantsImportCommand.self, TenantsFenceCommand.self, TenantsUnfenceCommand.self,
        ])
}

/// The options of a `tenants` verb that calls one service's admin routes.
struct AdminOptions: ParsableArguments {
    @Option(help: "The service's base URL (env BGEMU_URL, else BGEMU_SERVER). [default: http://127.0.0.1:8080]")
    var server: String?

    @Option(help: "The admin token (env BGEMU_ADMIN_TOKEN).")
    var adminToken: String?

    /// A client of `server` (the options' when nil) with the admin token.
    func client(server other: String? = nil) throws -> APIClient {
        try APIClient(server: other ?? ClientOptions.resolveServer(server), apiKey: try Self.token(adminToken))
    }

    /// `--admin-token`, else `BGEMU_ADMIN_TOKEN`; neither is a usage error.
    static func token(_ flag: String?) throws -> String {
        guard let token = flag ?? ProcessInfo.processInfo.environment["BGEMU_ADMIN_TOKEN"], !token.isEmpty else {
            throw ValidationError("Give the admin token with --admin-token or BGEMU_ADMIN_TOKEN.")
        }
        return token
    }

    /// What to do when the service refuses the token.
    static let hints = [
        "unauthorized": "the service refuses this admin token (--admin-token, BGEMU_ADMIN_TOKEN)",
        "tenantExists": "the tenant is on that shard already: delete it there first, or move it elsewhere",
        "tenantFenced": "the tenant is fenced for a move: `bgemu tenants unfence TENANT` takes its writes again",
    ]
}

extension APIClient {
    /// The id of the tenant named or identified by `tenant` on this service (an id is taken as it is when no
    /// tenant has it as its name).
    func tenantId(_ tenant: String) throws -> String {
        let tenants = try self.tenants()
        if let named = tenants.first(where: { $0["name"]?.stringValue == tenant }), let id = named["id"]?.stringValue {
            return id
        }
        return tenant
    }
}
