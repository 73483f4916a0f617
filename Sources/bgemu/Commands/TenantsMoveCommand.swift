import ArgumentParser
import BGEmuClient
import Foundation

/// `bgemu tenants move TENANT --from URL --to URL`: a tenant's move between shards (issue 30), step by step:
/// fence its writes on the source, export, import on the target, point the HAProxy map at the target, delete it
/// from the source.
struct TenantsMoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move a tenant from one shard to another.",
        discussion: """
            Fences the tenant's writes on the source (its clients get 503 with Retry-After, and retry), exports \
            it, imports it on the target, writes the map line `TENANT_ID SHARD_ID` (the target's shard id, from \
            its /healthz) — printed, put into --map-file in place of the tenant's line and, with --haproxy-socket (one per HAProxy replica), applied to every running proxy — and deletes the \
            tenant from the source. Nothing acknowledged is lost; event ids stay resumable on the target.

            A failure before the import lifts the fence again; a failure after it leaves the tenant fenced on the \
            source and says what is left to do.
            """)

    @Argument(help: "The tenant's name or id on the source.")
    var tenant: String

    @Option(help: "The source shard's base URL.")
    var from: String

    @Option(help: "The target shard's base URL.")
    var to: String

    @Option(help: "The admin token of both shards (env BGEMU_ADMIN_TOKEN).")
    var adminToken: String?

    @Option(help: "The target's admin token, when it is not the source's.")
    var toAdminToken: String?

    @OptionGroup var placement: TenantPlacementOptions

    @Flag(help: "Print only the map line on standard output, no progress on standard error.")
    var mapLineOnly = false

    @Flag(help: "Print the outcome as JSON.")
    var json = false

    func run() throws {
        try CommandFailure.reporting(hints: AdminOptions.hints) {
            let token = try AdminOptions.token(adminToken)
            let source = try APIClient(server: from, apiKey: token)
            let target = try APIClient(server: to, apiKey: toAdminToken ?? token)
            let progress = { (line: String) in if !mapLineOnly { Terminal.error(line) } }
            let id = try source.tenantId(tenant)
            guard let shard = try target.shardId() else {
                throw CommandFailure.local("the target \(to) names no shard (start it with `bgemu serve --shard-id`)")
            }
            try source.fenceTenant(id)
            progress("Fenced tenant \(id) on \(from).")
            let imported: JSONValue
            do {
                let document = try source.exportTenant(id)
                progress("Exported it (\(document.count) bytes).")
                imported = try target.importTenant(document)
            } catch {
                // Nothing is on the target: the source keeps the tenant, and takes its writes again.
                _ = try? source.unfenceTenant(id)
                progress("The move failed before the import; the fence on \(from) is lifted.")
                throw error
            }
            progress("Imported it on \(to) (shard \(shard)).")
            let line = "\(id) \(shard)"
            // The map flips before the source forgets the tenant: a request routed meanwhile reaches the target.
            let placed: [String]
            do {
                placed = try placement.place(tenantId: id, shardId: shard)
            } catch {
                Terminal.error(
                    "The tenant is on \(to) and still fenced on \(from) (its clients get 503 and retry); once the map "
                        + "names \(shard) everywhere, delete it there: DELETE /v1/admin/tenants/\(id).")
                throw error
            }
            if !placed.isEmpty { progress("Map line \(line): " + placed.joined(separator: ", ") + ".") }
            do {
                try source.deleteTenant(id)
            } catch {
                Terminal.error(
                    "The tenant is on \(to) and still fenced on \(from); delete it there: DELETE /v1/admin/tenants/\(id).")
                throw error
            }
            progress("Deleted it from \(from).")
            if json {
                let object: JSONValue = [
                    "tenantId": .string(id), "shard": .string(shard), "mapLine": .string(line),
                    "imported": imported,
                ]
                return Terminal.line(object.text)
            }
            Terminal.line(line)
        }
    }
}
