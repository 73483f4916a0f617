import ArgumentParser
import BGEmuClient

/// `bgemu tenants list`: every tenant, of one service or of every shard behind a proxy.
struct TenantsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the tenants of a service, or of every shard behind the proxy.",
        discussion: """
            With --shard (repeated), asks each shard through the proxy (its admin routes, the request naming the \
            shard in Bgemu-Shard), checks that the shard named answered, and lists the union with each tenant's \
            shard; a tenant on two shards (a move not finished) is listed twice. Without, lists the tenants of \
            --server itself.
            """)

    @Option(name: .customLong("shard"), help: "A shard to ask through the proxy (repeat for each).")
    var shards: [String] = []

    @OptionGroup var admin: AdminOptions

    @Flag(help: "Print the tenants as JSON: an array of {id, name, createdAt, shard}.")
    var json = false

    func run() throws {
        try CommandFailure.reporting {
            let client = try admin.client()
            var rows: [JSONValue] = []
            for shard in shards.isEmpty ? [nil] : shards.map(Optional.some) {
                let answeredBy = try client.shardIdentity(shard)
                if let shard, answeredBy != shard {
                    throw CommandFailure.local("asked for shard \(shard), \(answeredBy.map { "shard \($0)" } ?? "a service that is no shard") answered: does the proxy have a backend shard_\(shard)?")
                }
                for tenant in try client.tenants(onShard: shard) {
                    rows.append([
                        "id": tenant["id"] ?? .null, "name": tenant["name"] ?? .null, "createdAt": tenant["createdAt"] ?? .null,
                        "shard": answeredBy.map(JSONValue.string) ?? .null,
                    ])
                }
            }
            if json { return Terminal.line(JSONValue.array(rows).text) }
            let table = [["ID", "NAME", "SHARD", "CREATED"]] + rows.map { row in
                [row["id"]?.stringValue ?? "", row["name"]?.stringValue ?? "", row["shard"]?.stringValue ?? "-", row["createdAt"]?.stringValue ?? ""]
            }
            for line in Terminal.table(table) { Terminal.line(line) }
        }
    }
}
