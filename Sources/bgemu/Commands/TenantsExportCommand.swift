import ArgumentParser
import BGEmuClient
import Foundation

/// `bgemu tenants export TENANT [--out FILE]`: the tenant's whole state as one JSON document.
struct TenantsExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write a tenant's whole state as one JSON document.",
        discussion: """
            GET /v1/admin/tenants/{tenantId}/export: the tenant, its keys (their hashes: secrets are never stored), \
            devices, apps, events with their ids, pruning watermarks, forecasts and idempotency records. Fence the \
            tenant first (`bgemu tenants fence`) for an export that no write can follow. The document is what \
            `bgemu tenants import` takes; a shard takes one as large as its --max-upload-size.
            """)

    @Argument(help: "The tenant's name or id.")
    var tenant: String

    @OptionGroup var admin: AdminOptions

    @Option(help: "Write the document to this file instead of standard output.")
    var out: String?

    func run() throws {
        try CommandFailure.reporting(hints: AdminOptions.hints) {
            let service = try admin.client()
            let document = try service.exportTenant(try service.tenantId(tenant))
            guard let out else {
                FileHandle.standardOutput.write(Data(document))
                return
            }
            do { try Data(document).write(to: URL(fileURLWithPath: out), options: .atomic) } catch {
                throw CommandFailure.local("cannot write \(out): \(error.localizedDescription)")
            }
            Terminal.error("Exported tenant \(tenant) to \(out) (\(document.count) bytes).")
        }
    }
}
