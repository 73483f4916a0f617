import ArgumentParser
import BGEmuClient
import Foundation

/// `bgemu keys create --tenant NAME`: a new API key for a tenant, written into the service's database file, or
/// made through the admin routes; printed once.
struct KeysCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an API key for a tenant and print it once.",
        discussion: """
            For an operator who lost a key. By default it opens the service's SQLite database file (--database, \
            as `bgemu serve --database`), which is safe while the service runs: the service accepts the new key \
            at once. Only the key's SHA-256 is stored; the key itself is printed once, alone on standard output \
            (KEY=$(bgemu keys create --tenant default)), its id and tenant on standard error.

            With --admin-token, or with BGEMU_ADMIN_TOKEN when no database file is named (--database, \
            BGEMU_DATABASE), it goes through the running service's admin routes instead: \
            POST /v1/admin/tenants/{tenantId}/keys (and POST /v1/admin/tenants for --create-tenant).

            A tenant that does not exist is an error that lists the tenants, unless --create-tenant is given.
            """)

    @Option(help: "The tenant's name (the first start creates one named \"default\").")
    var tenant: String

    @Option(help: "The service's SQLite database file (env BGEMU_DATABASE). [default: ./bgemu.sqlite]")
    var database: String?

    @Flag(help: "Create the tenant when there is none of that name.")
    var createTenant = false

    @Option(help: "The admin token (env BGEMU_ADMIN_TOKEN): create the key through the service's admin routes.")
    var adminToken: String?

    @Option(help: "The service's base URL for --admin-token (env BGEMU_URL, else BGEMU_SERVER). [default: http://127.0.0.1:8080]")
    var server: String?

    @Flag(help: "Print the key, its id and its tenant as JSON.")
    var json = false

    func validate() throws {
        guard !tenant.isEmpty else { throw ValidationError("--tenant must not be empty.") }
        if database != nil, adminToken != nil {
            throw ValidationError("Give --database (the file) or --admin-token (the admin routes), not both.")
        }
    }

    func run() throws {
        let hints = [
            "unauthorized": "the service refuses this admin token (--admin-token, BGEMU_ADMIN_TOKEN); without one, "
                + "name the service's database file with --database",
        ]
        try CommandFailure.reporting(hints: hints) {
            let environment = ProcessInfo.processInfo.environment
            // A token given on the line wins; else a database file named anywhere; else a token from the environment.
            let namedDatabase = database ?? environment["BGEMU_DATABASE"]
            let token = adminToken ?? (namedDatabase == nil ? environment["BGEMU_ADMIN_TOKEN"] : nil)
            let issued: IssuedKey
            if let token, !token.isEmpty {
                let service = try APIClient(server: ClientOptions.resolveServer(server), apiKey: token)
                issued = try AdminKeys(service: service).create(tenant: tenant, createTenant: createTenant)
            } else {
                let path = namedDatabase ?? "bgemu.sqlite"
                issued = try DatabaseKeys(path: path).create(tenant: tenant, createTenant: createTenant)
            }
            if json {
                let object: JSONValue = [
                    "tenant": .string(issued.tenantName), "tenantId": .string(issued.tenantId), "keyId": .string(issued.keyId),
                    "prefix": .string(issued.prefix), "apiKey": .string(issued.secret), "tenantCreated": .bool(issued.tenantCreated),
                ]
                return Terminal.line(object.text)
            }
            Terminal.line(issued.secret)
            let what = issued.tenantCreated
                ? "Created tenant \"\(issued.tenantName)\" (\(issued.tenantId)) and its key \(issued.keyId)."
                : "Created key \(issued.keyId) of tenant \"\(issued.tenantName)\" (\(issued.tenantId))."
            Terminal.error(what + " It is shown only this once: only its SHA-256 is stored.")
        }
    }
}

/// A key just created: the secret, shown once, and what identifies it.
struct IssuedKey {
    var secret: String
    var keyId: String
    var prefix: String
    var tenantId: String
    var tenantName: String
    var tenantCreated: Bool
}
