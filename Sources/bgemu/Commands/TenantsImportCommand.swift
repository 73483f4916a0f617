import ArgumentParser
import BGEmuClient

/// `bgemu tenants import FILE`: creates the tenant of an export on a service, with all its rows.
struct TenantsImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Create a tenant from its export, with all its rows.",
        discussion: """
            POST /v1/admin/tenants/import, in one transaction. Refused (409 tenantExists) when the tenant's id or \
            name, one of its keys or devices exists on the service already. Its keys work at once. Its events keep \
            their ids (pages, cursors and streams show the ones the source showed), and a client resuming with an \
            id it read on the source (Last-Event-ID, after=, a cursor) continues exactly where it was.
            """)

    @Argument(help: "The export's file (- for standard input).")
    var file: String

    @OptionGroup var admin: AdminOptions

    @Flag(help: "Print the answer as JSON.")
    var json = false

    func run() throws {
        try CommandFailure.reporting(hints: AdminOptions.hints) {
            let document = try LocalFile.read(file, what: "the export")
            let answer = try admin.client().importTenant(document)
            if json { return Terminal.line(answer.text) }
            let rows = answer["rows"]?.objectValue?.values.compactMap(\.intValue).reduce(0, +) ?? 0
            Terminal.line("Imported tenant \(answer["tenantId"]?.stringValue ?? "?"): \(rows) rows.")
        }
    }
}
