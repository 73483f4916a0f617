import Foundation
import Service
import Storage
import Stores

/// Creates API keys in a service's database file through ``TenantService``, as the admin routes do:
/// only the SHA-256 is stored. SQLite's WAL and busy timeout make it safe while the service runs; the service looks
/// an unknown key up in the database, so it accepts the new key at once.
struct DatabaseKeys {
    let path: String

    func create(tenant name: String, createTenant: Bool) throws -> IssuedKey {
        let tenants = TenantService(store: SQLiteTenantStore(database: try open()))
        do {
            let (tenant, key, created) = try tenants.issueKey(tenantNamed: name, creatingTenant: createTenant)
            return IssuedKey(secret: key.secret, keyId: key.record.id, prefix: key.record.prefix, tenantId: tenant.id,
                             tenantName: tenant.name, tenantCreated: created)
        } catch TenantService.Refusal.noSuchTenant {
            let names = try tenants.tenantNames()
            throw CommandFailure.local(
                "\(path) has no tenant named \"\(name)\"; its tenants: "
                    + (names.isEmpty ? "none" : names.map { "\"\($0)\"" }.joined(separator: ", "))
                    + ". Give one of them, or --create-tenant to create \"\(name)\".")
        } catch let error as StoreError {
            throw CommandFailure.local("cannot write to \(path): \(error)")
        }
    }

    /// The database, if the file is a bgemu database of this version's schema; it is neither created nor migrated.
    private func open() throws -> Database {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure.local(
                "no database at \(path): give the file `bgemu serve --database` uses with --database (or BGEMU_DATABASE)")
        }
        let database: Database
        let applied: [String]
        do {
            database = try Database(path: path, readerCount: 0)
            applied = try DatabaseMigrator.bgemu.appliedMigrations(database)
        } catch {
            throw CommandFailure.local("cannot open \(path) as an SQLite database: \(error)")
        }
        let known = DatabaseMigrator.bgemu.names
        guard !applied.isEmpty else {
            throw CommandFailure.local("\(path) is not a bgemu database (it has no bgemu schema)")
        }
        guard applied == known else {
            throw CommandFailure.local(
                applied.count < known.count && Array(known.prefix(applied.count)) == applied
                    ? "\(path) has an older schema: start this version's `bgemu serve` on it once (it migrates), then retry"
                    : "\(path) was written by another version of bgemu: use that version's `bgemu keys create`")
        }
        return database
    }
}
