/// Moving a tenant between shards (issue 30), at the level of its rows: the fence on its writes, kept across
/// restarts, and its export and import.
public protocol TenantMoveStore: Sendable {
    /// The tenant's whole state, read in one snapshot; nil when there is no such tenant.
    func export(tenantId: String) throws -> TenantExport?

    /// About how many bytes the JSON of the tenant's export takes, from its rows' stored sizes, without reading
    /// them into memory (the bound an export is held to before it is built); nil when there is no such tenant.
    func exportSize(tenantId: String) throws -> Int?

    /// Creates the tenant with every row of `document` in one transaction. Throws `StoreError.duplicate` when
    /// its id, name, a key or a device exists here already, ``TenantImportFailure`` when the document cannot be
    /// imported here.
    func importTenant(_ document: TenantExport) throws -> ImportedTenant

    /// Records the fence on the tenant's writes (idempotent); false when there is no such tenant.
    func fence(tenantId: String) throws -> Bool
    /// Lifts it (idempotent); false when there is no such tenant.
    func unfence(tenantId: String) throws -> Bool
    /// The tenants fenced, for the start-up.
    func fencedTenants() throws -> [String]

    /// The event id `id` as it is on this shard, for a client of `tenantId` that resumes from an id it read on a
    /// shard the tenant was moved from; `id` itself when the tenant was never moved here.
    func eventIdAfterMoves(_ id: Int64, tenantId: String) throws -> Int64

    /// The event id `id` of this shard as the clients of `tenantId` know it: the id it had on the shard it was first
    /// recorded on, when a move brought it here (the inverse of ``eventIdAfterMoves(_:tenantId:)``); `id` itself
    /// for an id of this shard's own.
    func originalEventId(_ id: Int64, tenantId: String) throws -> Int64
}

/// What an import did.
public struct ImportedTenant: Sendable, Equatable {
    public var tenantId: String
    /// How many rows it wrote, by table.
    public var rows: [String: Int]
    /// The ids of the log's sequence the import took (its events' places here, and those given to the source's
    /// pruning watermarks; the events keep the ids their clients know as ``RecordedEvent/originalId``): ids that
    /// will never be published, which the live fan-out must skip. Nil when it took none.
    public var eventIds: ClosedRange<Int64>?

    public init(tenantId: String, rows: [String: Int], eventIds: ClosedRange<Int64>?) {
        self.tenantId = tenantId
        self.rows = rows
        self.eventIds = eventIds
    }
}

/// Why a document cannot be imported into this database.
public enum TenantImportFailure: Error, Equatable, Sendable {
    /// Not an export of this format and version.
    case unknownFormat(String)
    /// The source applied migrations this database has not: a newer bgemu exported it.
    case newerSchema([String])
    /// A table or column this database does not know, or a row that does not fit its columns.
    case invalid(String)
}
