// bgemu's schema: the migrations of this build, in order. Append only; never edit a shipped one.
import Foundation

extension DatabaseMigrator {
    /// Every migration of bgemu's schema, in order.
    ///
    /// Conventions: tables are `STRICT`; a list's stable order is an `INTEGER PRIMARY KEY AUTOINCREMENT` `seq`
    /// (never reused, so cursors stay valid after deletions); ids are text; dates are RFC 3339 text in UTC with
    /// milliseconds; a child row names its tenant with `ON DELETE CASCADE`, so deleting a tenant deletes what it owns.
    public static let bgemu: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("001_tenants") { db in
            try db.execute(
                """
                CREATE TABLE tenants (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL UNIQUE,
                    created_at TEXT NOT NULL
                ) STRICT;
                CREATE TABLE api_keys (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
                    hash TEXT NOT NULL UNIQUE,
                    prefix TEXT NOT NULL,
                    created_at TEXT NOT NULL,
                    revoked_at TEXT
                ) STRICT;
                CREATE INDEX api_keys_by_tenant ON api_keys(tenant_id, seq);
                CREATE TABLE settings (
                    name TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                ) STRICT;
                """)
        }
        migrator.registerMigration("002_devices") { db in
            try db.execute(
                """
                CREATE TABLE devices (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
                    created_at TEXT NOT NULL,
                    document BLOB NOT NULL
                ) STRICT;
                CREATE INDEX devices_by_tenant ON devices(tenant_id, seq);
                """)
        }
        migrator.registerMigration("003_events") { db in
            // The event log: `id` is strictly increasing service-wide and never reused (AUTOINCREMENT), and the SSE id
            // of an event recorded here (one a move brought keeps its own in `original_id`, migration 010).
            // No reference to devices: a device's events outlive it; a tenant's go with it. `at` is the virtual
            // instant in milliseconds; `data` is JSON with sorted keys (see `EventJSON`).
            // `devices.clock_mode` mirrors the document's `clock.mode`, so that the realtime devices are found
            // without decoding every document; existing rows are filled from their documents.
            try db.execute(
                """
                CREATE TABLE events (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
                    device_id TEXT NOT NULL,
                    bundle_id TEXT,
                    type TEXT NOT NULL,
                    at INTEGER NOT NULL,
                    recorded_at TEXT NOT NULL,
                    data TEXT NOT NULL
                ) STRICT;
                CREATE INDEX events_by_tenant ON events(tenant_id, id);
                CREATE INDEX events_by_device ON events(device_id, id);
                ALTER TABLE devices ADD COLUMN clock_mode TEXT NOT NULL DEFAULT 'manual';
                UPDATE devices SET clock_mode = json_extract(CAST(document AS TEXT), '$.clock.mode')
                    WHERE json_extract(CAST(document AS TEXT), '$.clock.mode') IS NOT NULL;
                CREATE INDEX devices_realtime ON devices(seq) WHERE clock_mode = 'realtime';
                """)
        }
        migrator.registerMigration("004_events_by_run") { db in
            // The events of one run (`?runId=`, always with its device: run ids are unique on a device only), in id
            // order. Partial: only the events whose data names a run are in it.
            try db.execute(
                """
                CREATE INDEX events_by_run ON events(tenant_id, json_extract(data, '$.runId'), device_id, id)
                    WHERE json_extract(data, '$.runId') IS NOT NULL;
                """)
        }
        migrator.registerMigration("005_idempotency") { db in
            // The first answer to a request with an `Idempotency-Key`, per tenant and key, written in the transaction
            // of the write it describes. `method`, `path` and `body_sha256` identify the request (a retry must match
            // them); `headers` is a JSON array of [name, value] pairs; `body` the answer's bytes. Rows older than
            // the retention (24 h) are ignored and pruned in bounded batches on insert, oldest first.
            try db.execute(
                """
                CREATE TABLE idempotency (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
                    key TEXT NOT NULL,
                    method TEXT NOT NULL,
                    path TEXT NOT NULL,
                    body_sha256 TEXT NOT NULL,
                    status INTEGER NOT NULL,
                    headers TEXT NOT NULL,
                    body BLOB NOT NULL,
                    created_at TEXT NOT NULL,
                    PRIMARY KEY (tenant_id, key)
                ) STRICT;
                CREATE INDEX idempotency_by_age ON idempotency(created_at);
                """)
        }
        migrator.registerMigration("006_event_retention") { db in
            // What the event retention needs to know cheaply, one row per device that has written events: `held`,
            // how many of its events the log holds (kept by every append, so the devices over a count limit are found
            // through `event_retention_by_held` without counting), and `pruned_through`, the greatest id of its
            // events that the retention deleted (0: none). A page or resume after an id below it would skip events,
            // and is answered `410` instead; the tenant's is the greatest of its devices'. Filled from the events
            // an earlier build wrote, none of them pruned. Deleting a tenant deletes its rows with its events.
            try db.execute(
                """
                CREATE TABLE event_retention (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
                    device_id TEXT NOT NULL,
                    held INTEGER NOT NULL,
                    pruned_through INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (tenant_id, device_id)
                ) STRICT;
                CREATE INDEX event_retention_by_held ON event_retention(held);
                CREATE INDEX event_retention_by_tenant ON event_retention(tenant_id, pruned_through);
                INSERT INTO event_retention (tenant_id, device_id, held)
                    SELECT tenant_id, device_id, count(*) FROM events GROUP BY tenant_id, device_id;
                """)
        }
        migrator.registerMigration("007_forecasts") { db in
            // The tenants' fleet forecasts (issue 14), in creation order by rowid (a new row's rowid is above every
            // row's). `request` is the request's JSON with every default filled in; `result` (the summary's JSON)
            // and `csv` (the per-device rows) once `done`; `error` (`{code, detail}` JSON) once `failed`.
            try db.execute(
                """
                CREATE TABLE forecasts (id TEXT NOT NULL UNIQUE,
                  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE, state TEXT NOT NULL,
                  progress REAL NOT NULL, request TEXT NOT NULL, result TEXT, csv TEXT, error TEXT,
                  devices_per_second REAL, created_at TEXT NOT NULL, finished_at TEXT) STRICT;
                CREATE INDEX forecasts_by_tenant ON forecasts(tenant_id);
                """)
        }
        migrator.registerMigration("008_event_counts") { db in
            // `event_retention` cost every write transaction four B-trees (its rows, its key, two indexes) for a
            // count that only a per-device limit reads, and the service has no retention by default. Split by who
            // needs what, each keyed by its lookups alone (`WITHOUT ROWID`, no secondary index):
            // - `event_counts`: how many events of each device the log holds, kept by the appends only while
            //   counting is on (see `EventCounts`); the pruner finds the devices over the limit by scanning it, off
            //   the writer, which is cheaper than an index that every append writes.
            // - `event_watermarks`: a device's greatest pruned id, a row only for a device the retention pruned from.
            // - `tenant_event_watermarks`: the greatest of a tenant's, raised with them, so that a tenant-wide page
            //   or resume checks one key instead of every device of the tenant.
            // Copied exactly from `event_retention` (every append counted there, so the counts are valid: no
            // `event_counts` row in `settings`, which only switching counting off writes; and a `410` answered
            // before is answered after), then it goes. A tenant's rows go with it.
            try db.execute(
                """
                CREATE TABLE event_counts (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
                    device_id TEXT NOT NULL,
                    held INTEGER NOT NULL,
                    PRIMARY KEY (tenant_id, device_id)
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE event_watermarks (
                    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
                    device_id TEXT NOT NULL,
                    pruned_through INTEGER NOT NULL,
                    PRIMARY KEY (tenant_id, device_id)
                ) STRICT, WITHOUT ROWID;
                CREATE TABLE tenant_event_watermarks (
                    tenant_id TEXT PRIMARY KEY NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
                    pruned_through INTEGER NOT NULL
                ) STRICT, WITHOUT ROWID;
                INSERT INTO event_counts (tenant_id, device_id, held)
                    SELECT tenant_id, device_id, held FROM event_retention;
                INSERT INTO event_watermarks (tenant_id, device_id, pruned_through)
                    SELECT tenant_id, device_id, pruned_through FROM event_retention WHERE pruned_through > 0;
                INSERT INTO tenant_event_watermarks (tenant_id, pruned_through)
                    SELECT tenant_id, max(pruned_through) FROM event_retention WHERE pruned_through > 0
                    GROUP BY tenant_id;
                DELETE FROM settings WHERE name = 'event_counts';
                DROP INDEX event_retention_by_held;
                DROP INDEX event_retention_by_tenant;
                DROP TABLE event_retention;
                """)
        }
        migrator.registerMigration("009_tenant_moves", TenantMoveSchema.migration)
        migrator.registerMigration("010_event_original_ids", TenantMoveSchema.originalIds)
        return migrator
    }()
}

/// Opens the database at `path` (creating the file if missing), brings its schema up to date with `migrator`,
/// and returns it. ``Database/isFirstStart`` tells whether the database was new; `checkpointing` says who
/// checkpoints its WAL (``CheckpointPolicy/replicated`` when Litestream replicates it).
///
/// Throws ``DatabaseMigrator/Failure/unknownMigrations(_:)`` when the file was written by a newer bgemu.
public func openDatabase(
    path: String, readerCount: Int = 2, checkpointing: CheckpointPolicy = .own, migrator: DatabaseMigrator = .bgemu
) throws -> Database {
    let database = try Database(path: path, readerCount: readerCount, checkpointing: checkpointing)
    try migrator.migrate(database)
    // The writer keeps its temporary files in memory: a multi-row insert of events (see `EventRows`) keeps a
    // statement journal, which SQLite otherwise spills to a temporary file past 64 KiB, a write system call per
    // page. Set after the migrations, whose index builds over large tables may sort more than is worth holding.
    try database.writeWithoutTransaction { try $0.execute("PRAGMA temp_store=MEMORY") }
    return database
}
