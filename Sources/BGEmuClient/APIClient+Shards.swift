import BGEmuHTTP

extension APIClient {
    /// The header in which a shard names itself on every answer (`bgemu serve --shard-id`), and in which an
    /// operator's request names the shard a proxy should send it to when it names no tenant
    /// (`deploy/haproxy/haproxy.cfg`).
    public static let shardHeader = "Bgemu-Shard"

    /// The headers that ask a proxy for `shard` (none for nil: the server itself, or the proxy's default).
    static func shardHeaders(_ shard: String?) -> [(String, String)] { shard.map { [(shardHeader, $0)] } ?? [] }

    /// `POST /v1/admin/tenants` on `shard` (through a proxy; nil: the server itself): the tenant created with its
    /// first key, and the shard that answered (its `Bgemu-Shard`; nil from a service that is no shard).
    public func createTenant(name: String, onShard shard: String?) throws(ClientFailure) -> (tenant: JSONValue, answeredBy: String?) {
        let headers = Self.shardHeaders(shard) + [("Accept", "application/json"), ("Content-Type", "application/json")]
        let body: JSONValue = ["name": .string(name)]
        let response = try send("POST", "/v1/admin/tenants", headers: headers, body: body.bytes)
        return (try Self.decode(response, "POST", "/v1/admin/tenants"), response.header(Self.shardHeader))
    }

    /// `GET /v1/admin/tenants` on `shard`, every page.
    public func tenants(onShard shard: String?) throws -> [JSONValue] {
        try allItems("/v1/admin/tenants", headers: Self.shardHeaders(shard), limit: 100)
    }

    /// `GET /healthz` on `shard`: the shard that answered (nil from a service that is no shard).
    public func shardIdentity(_ shard: String?) throws(ClientFailure) -> String? {
        try send("GET", "/healthz", headers: Self.shardHeaders(shard)).header(Self.shardHeader)
    }
}
