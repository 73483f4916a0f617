extension APIClient {
    /// `GET /v1/admin/tenants`, every page (the admin token).
    public func tenants() throws -> [JSONValue] { try allItems("/v1/admin/tenants", limit: 100) }

    /// `POST /v1/admin/tenants`: the tenant created, with its first key (`apiKey`, shown once).
    public func createTenant(name: String) throws(ClientFailure) -> JSONValue {
        try json("POST", "/v1/admin/tenants", body: ["name": .string(name)])
    }

    /// `POST /v1/admin/tenants/{tenantId}/keys`: a new key of the tenant (`apiKey`, shown once).
    public func createKey(tenant id: String) throws(ClientFailure) -> JSONValue {
        try json("POST", PathEncoding.path("v1", "admin", "tenants", id, "keys"))
    }
}
