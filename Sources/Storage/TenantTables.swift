// Which tables hold a tenant's rows, and how each moves.

/// The tables a tenant's move copies (``moved``), in the order an import inserts them (the `tenants` row first, for
/// the references), and those it deliberately leaves (``notMoved``). Every table with a `tenant_id` or `device_id`
/// column must be in one of the two: a test checks it against the schema, so a new tenant-owned table cannot be
/// forgotten by the export.
enum TenantTables {
    struct Moved: Sendable {
        var name: String
        /// The column naming the tenant (`id` in `tenants`).
        var tenantColumn = "tenant_id"
        /// The order rows are read in, and so inserted in: list order (`seq`, rowid) and event ids.
        var order: String
        /// Columns not copied: autoincrement keys of list order, which the target hands out anew (in the same
        /// order). A list cursor from the source is no cursor on the target; event ids are handled apart.
        var skipped: Set<String> = []
    }

    static let moved: [Moved] = [
        Moved(name: "tenants", tenantColumn: "id", order: "seq", skipped: ["seq"]),
        Moved(name: "api_keys", order: "seq", skipped: ["seq"]),
        Moved(name: "devices", order: "seq", skipped: ["seq"]),
        // `id` is renumbered by the import, the id the clients know kept in `original_id` (see `EventIdMoves`).
        Moved(name: "events", order: "id"),
        Moved(name: "event_counts", order: "device_id"),
        // `pruned_through` is an event id: renumbered with the events.
        Moved(name: "event_watermarks", order: "device_id"),
        Moved(name: "tenant_event_watermarks", order: "tenant_id"),
        Moved(name: "event_id_moves", order: "through, old_start"),
        Moved(name: "forecasts", order: "rowid"),
        Moved(name: "idempotency", order: "rowid"),
    ]

    /// Tables with a tenant's rows that a move leaves where they are, and why.
    static let notMoved: [String: String] = [
        "tenant_fences": "the fence is the source's state during the move; the target starts unfenced",
    ]

    static func moved(_ name: String) -> Moved? { moved.first { $0.name == name } }

    /// The columns of `table` in this database, in order (`PRAGMA table_info`).
    static func columns(of table: String, _ db: SQLiteConnection) throws -> [String] {
        try db.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [table]) { try $0[0] }
    }

    /// `name` as an SQL identifier. Only ever given names that the schema has (checked by the callers).
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
