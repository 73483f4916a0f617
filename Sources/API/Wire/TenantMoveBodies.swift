import Stores

/// The answer of `PUT`/`DELETE /v1/admin/tenants/{tenantId}/fence`.
struct TenantFenceBody: Encodable {
    var tenantId: String
    var fenced: Bool
}

/// The answer of `POST /v1/admin/tenants/import`: the tenant created, its rows by table, and the places in this
/// shard's log the import took (its events keep the ids their clients know; these are where they are in the log).
struct ImportedTenantBody: Encodable {
    var tenantId: String
    var rows: [String: Int]
    var firstEventId: Int64?
    var lastEventId: Int64?

    init(_ imported: ImportedTenant) {
        tenantId = imported.tenantId
        rows = imported.rows
        firstEventId = imported.eventIds?.lowerBound
        lastEventId = imported.eventIds?.upperBound
    }
}
