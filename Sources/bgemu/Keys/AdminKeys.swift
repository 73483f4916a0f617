import BGEmuClient
import Service

/// Creates API keys through a running service's admin routes (`/v1/admin/tenants…`, admin token).
struct AdminKeys {
    let service: APIClient

    func create(tenant name: String, createTenant: Bool) throws -> IssuedKey {
        let tenants = try service.tenants()
        if let tenant = tenants.first(where: { $0["name"]?.stringValue == name }), let id = tenant["id"]?.stringValue {
            let key = try service.createKey(tenant: id)
            return IssuedKey(
                secret: key["apiKey"]?.stringValue ?? "", keyId: key["id"]?.stringValue ?? "?",
                prefix: key["prefix"]?.stringValue ?? "", tenantId: id, tenantName: name, tenantCreated: false)
        }
        guard createTenant else {
            let names = tenants.compactMap { $0["name"]?.stringValue }
            throw CommandFailure.local(
                "the service has no tenant named \"\(name)\"; its tenants: "
                    + (names.isEmpty ? "none" : names.map { "\"\($0)\"" }.joined(separator: ", "))
                    + ". Give one of them, or --create-tenant to create \"\(name)\".")
        }
        let created = try service.createTenant(name: name)
        let secret = created["apiKey"]?.stringValue ?? ""
        return IssuedKey(
            secret: secret, keyId: created["keyId"]?.stringValue ?? "?", prefix: KeyFactory.displayPrefix(of: secret),
            tenantId: created["id"]?.stringValue ?? "?", tenantName: name, tenantCreated: true)
    }
}
