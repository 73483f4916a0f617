// The tables of tenant moves between shards (issue 30): migrations 009 and 010.

/// Migration `009_tenant_moves`:
/// - `tenant_fences`: the tenants whose writes are fenced (`503`) for a move. A row, not memory, so that a source
///   restarted in the middle of a move stays fenced. Not moved with the tenant: the target starts unfenced.
/// - `event_id_moves`: how the event ids a tenant's clients read on the shards it was moved from map to this
///   shard's, as runs (see ``EventIdMoves``). One generation per move (`through`, the source's greatest id then);
///   moved with the tenant, so that a client still holding an id from two moves ago resumes exactly.
enum TenantMoveSchema {
    static let migration: @Sendable (SQLiteConnection) throws -> Void = { db in
        try db.execute(
            """
            CREATE TABLE tenant_fences (
                tenant_id TEXT PRIMARY KEY NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
                fenced_at TEXT NOT NULL
            ) STRICT, WITHOUT ROWID;
            CREATE TABLE event_id_moves (
                tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
                through INTEGER NOT NULL,
                old_start INTEGER NOT NULL,
                new_start INTEGER NOT NULL,
                length INTEGER NOT NULL,
                PRIMARY KEY (tenant_id, through, old_start)
            ) STRICT, WITHOUT ROWID;
            """)
    }

    /// Migration `010_event_original_ids`: `events.original_id`, the id an event imported by a move had on the shard
    /// it was first recorded on, which its tenant's clients know it by (NULL: the event was recorded here, and its
    /// `id` is the one they know). See ``EventIdMoves``.
    static let originalIds: @Sendable (SQLiteConnection) throws -> Void = { db in
        try db.execute("ALTER TABLE events ADD COLUMN original_id INTEGER")
    }
}
