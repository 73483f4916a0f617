import ArgumentParser
import BGEmuClient

/// `bgemu tenants create NAME --shard sN`: a new tenant on one shard, placed in HAProxy's tenant → shard map.
struct TenantsCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a tenant on a shard and place it in the proxy's tenant → shard map.",
        discussion: """
            Creates the tenant through the admin routes (POST /v1/admin/tenants) on the shard --shard names: \
            through the proxy (--server is HAProxy, which sends a request naming no tenant to the shard its \
            Bgemu-Shard header names) or on the shard itself (--server is the shard). The shard that answered must \
            name itself --shard (its Bgemu-Shard header), else nothing is placed and the command fails.

            The tenant's first API key is printed once, alone on standard output; its id, shard and map line on \
            standard error. With --map-file the line `TENANT_ID SHARD` is written into HAProxy's map file (for \
            reloads), and with --haproxy-socket also applied to each running proxy (repeat it per replica) over its runtime API; \
            with neither, add the printed line yourself.
            """)

    @Argument(help: "The tenant's name.")
    var name: String

    @Option(help: "The shard to create it on (its --shard-id).")
    var shard: String

    @OptionGroup var admin: AdminOptions
    @OptionGroup var placement: TenantPlacementOptions

    @Flag(help: "Print the tenant, its key, shard and map line as JSON.")
    var json = false

    func validate() throws {
        guard !name.isEmpty else { throw ValidationError("The tenant's name must not be empty.") }
        guard !shard.isEmpty else { throw ValidationError("--shard must not be empty.") }
    }

    func run() throws {
        try CommandFailure.reporting {
            let client = try admin.client()
            let (tenant, answeredBy) = try client.createTenant(name: name, onShard: shard)
            let tenantId = tenant["id"]?.stringValue ?? ""
            guard answeredBy == shard else {
                throw CommandFailure.local(
                    "tenant \"\(name)\" (\(tenantId)) was created on \(answeredBy.map { "shard \($0)" } ?? "a service that is no shard"), "
                        + "not on \(shard): the proxy has no backend shard_\(shard), or --server is another shard. "
                        + "It is not placed; remove it there (DELETE /v1/admin/tenants/\(tenantId)).")
            }
            // The tenant exists from here on: its key is printed even when the placement fails (it is shown once).
            var done: [String] = []
            var placementFailure: (any Error)?
            do { done = try placement.place(tenantId: tenantId, shardId: shard) } catch { placementFailure = error }
            let line = TenantMapFile.line(tenantId: tenantId, shardId: shard)
            if json {
                let object: JSONValue = [
                    "id": .string(tenantId), "name": .string(name), "shard": .string(shard),
                    "apiKey": tenant["apiKey"] ?? .null, "keyId": tenant["keyId"] ?? .null, "mapLine": .string(line),
                    "mapFile": placement.resolvedMapFile.map(JSONValue.string) ?? .null,
                    "appliedToProxy": .bool(placementFailure == nil && !placement.resolvedSockets.isEmpty),
                    "placed": .bool(placementFailure == nil),
                ]
                Terminal.line(object.text)
                if let placementFailure { throw placementFailure }
                return
            }
            Terminal.line(tenant["apiKey"]?.stringValue ?? "")
            Terminal.error("Created tenant \"\(name)\" (\(tenantId)) on shard \(shard); its key is shown only this once.")
            if let placementFailure { throw placementFailure }
            Terminal.error("Map line: \(line)" + (done.isEmpty ? " (add it to HAProxy's tenant map)" : " — " + done.joined(separator: ", ")))
        }
    }
}
