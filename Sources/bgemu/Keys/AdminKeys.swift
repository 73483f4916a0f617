/// Creates API keys through a running service's admin routes (`/v1/admin/tenants…`, admin token).
struct AdminKeys {
    let service: ServiceClient

    func create(tenant name: String, createTenant: Bool) throws -> IssuedKey {
        let tenants = try service.allItems("/v1/admin/tenants", limit: 100)
        if let tenant = tenants.first(where: { $0["name"] as? String == name }), let id = tenant["id"] as? String {
            let key = try service.json("POST", ServiceClient.path("v1", "admin", "tenants", id, "keys"))
            return IssuedKey(
                secret: key["apiKey"] as? String ?? "", keyId: key["id"] as? String ?? "?", prefix: key["prefix"] as? String ?? "",
                tenantId: id, tenantName: name, tenantCreated: false)
        }
        guard createTenant else {
            let names = tenants.compactMap { $0["name"] as? String }
            throw CommandFailure.local(
                "the service has no tenant named \"\(name)\"; its tenants: "
                    + (names.isEmpty ? "none" : names.map { "\"\($0)\"" }.joined(separator: ", "))
                    + ". Give one of them, or --create-tenant to create \"\(name)\".")
        }
        let created = try service.json("POST", "/v1/admin/tenants", json: ["name": name])
        let secret = created["apiKey"] as? String ?? ""
        return IssuedKey(
            secret: secret, keyId: created["keyId"] as? String ?? "?", prefix: String(secret.prefix(10)),
            tenantId: created["id"] as? String ?? "?", tenantName: name, tenantCreated: true)
    }
}
