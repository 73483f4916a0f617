import ArgumentParser
import BGEmuClient

/// `bgemu tenants fence TENANT`: the tenant's writes are refused (`503 tenantFenced`, `Retry-After`) until
/// `unfence`; returns once its writes in flight have finished.
struct TenantsFenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fence", abstract: "Refuse a tenant's writes (503) until unfenced, for a move.",
        discussion: """
            PUT /v1/admin/tenants/{tenantId}/fence. Returns once the tenant's writes in flight have finished, so \
            that an export taken afterwards holds every write acknowledged. Reads and event streams go on. The \
            fence is stored: it holds across a restart of the service.
            """)

    @Argument(help: "The tenant's name or id.")
    var tenant: String

    @OptionGroup var admin: AdminOptions

    @Flag(help: "Print the answer as JSON.")
    var json = false

    func run() throws {
        try CommandFailure.reporting(hints: AdminOptions.hints) {
            let service = try admin.client()
            let answer = try service.fenceTenant(try service.tenantId(tenant))
            Terminal.line(json ? answer.text : "Fenced tenant \(answer["tenantId"]?.stringValue ?? tenant): its writes are refused.")
        }
    }
}

/// `bgemu tenants unfence TENANT`: the tenant's writes are taken again.
struct TenantsUnfenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unfence", abstract: "Take a fenced tenant's writes again.",
        discussion: "DELETE /v1/admin/tenants/{tenantId}/fence.")

    @Argument(help: "The tenant's name or id.")
    var tenant: String

    @OptionGroup var admin: AdminOptions

    @Flag(help: "Print the answer as JSON.")
    var json = false

    func run() throws {
        try CommandFailure.reporting(hints: AdminOptions.hints) {
            let service = try admin.client()
            let answer = try service.unfenceTenant(try service.tenantId(tenant))
            Terminal.line(json ? answer.text : "Unfenced tenant \(answer["tenantId"]?.stringValue ?? tenant): its writes are taken.")
        }
    }
}
