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
        try TenantFenceChange.run(tenant, admin, json: json, done: "Fenced", after: "its writes are refused") {
            try $0.fenceTenant($1)
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
        try TenantFenceChange.run(tenant, admin, json: json, done: "Unfenced", after: "its writes are taken") {
            try $0.unfenceTenant($1)
        }
    }
}

/// What `fence` and `unfence` share: the tenant named or identified, the change made, its answer printed.
enum TenantFenceChange {
    static func run(
        _ tenant: String, _ admin: AdminOptions, json: Bool, done: String, after: String,
        _ change: (APIClient, String) throws -> JSONValue
    ) throws {
        try CommandFailure.reporting(hints: AdminOptions.hints) {
            let service = try admin.client()
            let answer = try change(service, try service.tenantId(tenant))
            Terminal.line(json ? answer.text : "\(done) tenant \(answer["tenantId"]?.stringValue ?? tenant): \(after).")
        }
    }
}
