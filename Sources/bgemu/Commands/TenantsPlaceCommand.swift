import ArgumentParser

/// `bgemu tenants place TENANT SHARD`: maps a tenant to a shard in HAProxy's map file and running proxy.
struct TenantsPlaceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "place",
        abstract: "Map a tenant to a shard in HAProxy's tenant → shard map.",
        discussion: """
            Writes `TENANT_ID SHARD` into the map file (--map-file, replacing the tenant's line or adding it; \
            the file is replaced whole, so a reload never reads half of it) and, with --haproxy-socket (repeated for each \
            HAProxy replica), into every running proxy over its runtime API (set map, or add map for a new tenant), then reads it back. \
            The proxy sends the tenant's next request to the new shard.
            """)

    @Argument(help: "The tenant's id (ten_…).")
    var tenantId: String

    @Argument(help: "The shard (its --shard-id).")
    var shard: String

    @OptionGroup var placement: TenantPlacementOptions

    func validate() throws {
        guard tenantId.hasPrefix("ten_"), !tenantId.contains(where: \.isWhitespace) else {
            throw ValidationError("\"\(tenantId)\" is not a tenant id (ten_…).")
        }
        guard !shard.isEmpty, !shard.contains(where: \.isWhitespace) else { throw ValidationError("The shard must be one word.") }
        guard placement.resolvedMapFile != nil else { throw ValidationError("Name HAProxy's map file with --map-file (BGEMU_TENANT_MAP).") }
    }

    func run() throws {
        try CommandFailure.reporting {
            let done = try placement.place(tenantId: tenantId, shardId: shard)
            Terminal.line(TenantMapFile.line(tenantId: tenantId, shardId: shard))
            Terminal.error("Placed \(tenantId) on shard \(shard): " + done.joined(separator: ", ") + ".")
        }
    }
}
