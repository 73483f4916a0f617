extension APIClient {
    /// `PUT /v1/admin/tenants/{tenantId}/fence` (the admin token): the tenant's writes are refused with `503` from
    /// now on, and the call returns once its writes in flight have finished.
    @discardableResult
    public func fenceTenant(_ id: String) throws(ClientFailure) -> JSONValue {
        try json("PUT", PathEncoding.path("v1", "admin", "tenants", id, "fence"))
    }

    /// `DELETE /v1/admin/tenants/{tenantId}/fence`: the tenant's writes are taken again.
    @discardableResult
    public func unfenceTenant(_ id: String) throws(ClientFailure) -> JSONValue {
        try json("DELETE", PathEncoding.path("v1", "admin", "tenants", id, "fence"))
    }

    /// `GET /v1/admin/tenants/{tenantId}/export`: the tenant's whole state, as the JSON document's bytes (kept as
    /// they are, for `importTenant`).
    public func exportTenant(_ id: String) throws(ClientFailure) -> [UInt8] {
        try send("GET", PathEncoding.path("v1", "admin", "tenants", id, "export"), headers: [("Accept", "application/json")]).body
    }

    /// `POST /v1/admin/tenants/import`: creates the tenant of an export, with all its rows; answers what was written.
    @discardableResult
    public func importTenant(_ document: [UInt8]) throws(ClientFailure) -> JSONValue {
        try upload("POST", "/v1/admin/tenants/import", bytes: document, contentType: "application/json")
    }

    /// `DELETE /v1/admin/tenants/{tenantId}`: the tenant and everything it owns are gone.
    public func deleteTenant(_ id: String) throws(ClientFailure) {
        _ = try send("DELETE", PathEncoding.path("v1", "admin", "tenants", id))
    }

    /// The shard id this instance names itself by (`/healthz`'s `shard`, else its `Bgemu-Shard` header); nil when
    /// it is not a shard.
    public func shardId() throws(ClientFailure) -> String? {
        let response = try send("GET", "/healthz", headers: [("Accept", "application/json")])
        if let shard = (try? JSONValue.parse(response.body))?["shard"]?.stringValue { return shard }
        return response.header("Bgemu-Shard")
    }
}
