import Foundation
import Testing
@testable import Storage

@Suite struct DatabaseMigratorTests {
    struct Boom: Error {}

    private func migrator(_ names: [String]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for name in names {
            migrator.registerMigration(name) { db in
                try db.execute("CREATE TABLE IF NOT EXISTS log (name TEXT)")
                try db.execute("INSERT INTO log (name) VALUES (?)", [name])
            }
        }
        return migrator
    }

    private func log(_ database: Database) throws -> [String] {
        try database.read { db throws in try db.query("SELECT name FROM log ORDER BY rowid") { try $0.get(0, as: String.self) } }
    }

    @Test func appliesMigrationsInOrderAndRecordsThem() throws {
        try withTemporaryPath { path throws in
            let database = try Database(path: path)
            let applied = try migrator(["001_a", "002_b", "003_c"]).migrate(database)
            #expect(applied == ["001_a", "002_b", "003_c"])
            #expect(try log(database) == ["001_a", "002_b", "003_c"])
            #expect(try migrator([]).appliedMigrations(database) == ["001_a", "002_b", "003_c"])
            let appliedAt = try database.read { db throws in
                try db.scalar("SELECT applied_at FROM schema_migrations WHERE name = '001_a'", as: String.self)
            }
            #expect(appliedAt.flatMap(StorageDate.date) != nil)
        }
    }

    @Test func migratingTwiceIsANoOp() throws {
        try withTemporaryPath { path throws in
            let database = try Database(path: path)
            try migrator(["001_a", "002_b"]).migrate(database)
            #expect(try migrator(["001_a", "002_b"]).migrate(database) == [])
            #expect(try log(database) == ["001_a", "002_b"])
        }
    }

    @Test func appendedMigrationsAreAppliedLater() throws {
        try withTemporaryPath { path throws in
            let database = try Database(path: path)
            try migrator(["001_a"]).migrate(database)
            #expect(try migrator(["001_a", "002_b"]).migrate(database) == ["002_b"])
            #expect(try log(database) == ["001_a", "002_b"])
        }
    }

    @Test func refusesADatabaseFromANewerBuild() throws {
        try withTemporaryPath { path throws in
            let database = try Database(path: path)
            try migrator(["001_a", "002_b"]).migrate(database)
            let error = #expect(throws: DatabaseMigrator.Failure.self) { try migrator(["001_a"]).migrate(database) }
            #expect(error == .unknownMigrations(["002_b"]))
            #expect(error?.description.contains("newer") == true)
        }
    }

    @Test func refusesAMigrationInsertedBeforeAppliedOnes() throws {
        try withTemporaryPath { path throws in
            let database = try Database(path: path)
            try migrator(["001_a", "003_c"]).migrate(database)
            let error = #expect(throws: DatabaseMigrator.Failure.self) {
                try migrator(["001_a", "002_b", "003_c"]).migrate(database)
            }
            #expect(error == .outOfOrder(missing: ["002_b"]))
        }
    }

    @Test func aFailingMigrationIsRolledBackAndStopsTheRest() throws {
        try withTemporaryPath { path throws in
            let database = try Database(path: path)
            var migrator = migrator(["001_a"])
            migrator.registerMigration("002_fails") { db in
                try db.execute("CREATE TABLE half (x INTEGER)")
                throw Boom()
            }
            migrator.registerMigration("003_c") { db in try db.execute("CREATE TABLE c (x INTEGER)") }
            #expect(throws: Boom.self) { try migrator.migrate(database) }
            #expect(try migrator.appliedMigrations(database) == ["001_a"])
            let tables = try database.read { db throws in
                try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                    try $0.get(0, as: String.self)
                }
            }
            #expect(!tables.contains("half") && !tables.contains("c"))
        }
    }

    @Test func bgemuSchemaIsComplete() throws {
        try withDatabase { database throws in
            #expect(try DatabaseMigrator.bgemu.appliedMigrations(database) == [
                "001_tenants", "002_devices", "003_events", "004_events_by_run", "005_idempotency", "006_event_retention",
                "007_forecasts", "008_event_counts", "009_tenant_moves", "010_event_original_ids",
            ])
            let tables = try database.read { db throws in
                try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
                    try $0.get(0, as: String.self)
                }
            }
            #expect(Set(tables).isSuperset(of: [
                "api_keys", "devices", "event_counts", "event_watermarks", "events", "forecasts", "idempotency",
                "schema_migrations", "settings", "tenant_event_watermarks", "tenants", "event_id_moves", "tenant_fences",
            ]))
            #expect(!tables.contains("event_retention"))  // replaced by 008
            // The retention's tables are their primary key alone: no rowid B-tree beside it.
            for table in ["event_counts", "event_watermarks", "tenant_event_watermarks"] {
                let sql = try database.read { db in
                    try db.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [table], as: String.self)
                }
                #expect(sql?.hasSuffix("STRICT, WITHOUT ROWID") == true, "\(table): \(sql ?? "missing")")
            }
            let indexes = try database.read { db throws in
                try db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
                    try $0.get(0, as: String.self)
                }
            }
            #expect(Set(indexes) == [
                "api_keys_by_tenant", "devices_by_tenant", "forecasts_by_tenant", "devices_realtime", "events_by_device", "events_by_run",
                "events_by_tenant", "idempotency_by_age",
            ])
        }
    }
}
