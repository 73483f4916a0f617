import API
import Emulation
import Foundation
import Service
import Storage
import Stores

/// Creates API keys in a service's database file, as the admin routes do (``KeyFactory``, ``SecretGenerator``):
/// only the SHA-256 is stored. SQLite's WAL and busy timeout make it safe while the service runs; the service looks
/// an unknown key up in the database, so it accepts the new key at once.
struct DatabaseKeys {
    let path: String

    func create(tenant name: String, createTenant: Bool) throws -> IssuedKey {
        let store = SQLiteTenantStore(database: try open())
        let now = Date()
        do {
            if let tenant = try store.tenant(named: name) {
                let secret = SecretGenerator.newSecret()
                let record = KeyFactory.record(for: secret, tenantId: tenant.id, at: now)
                try store.addKey(record)
                return IssuedKey(secret: secret, keyId: record.id, prefix: record.prefix, tenantId: tenant.id,
                                 tenantName: tenant.name, tenantCreated: false)
            }
            guard createTenant else {
                let names = try tenantNames(store)
                throw CommandFailure.local(
                    "\(path) has no tenant named \"\(name)\"; its tenants: "
                        + (names.isEmpty ? "none" : names.map { "\"\($0)\"" }.joined(separator: ", "))
                        + ". Give one of them, or --create-tenant to create \"\(name)\".")
            }
            let tenant = Tenant(id: SecretGenerator.newID("ten"), name: name, createdAt: now)
            let secret = SecretGenerator.newSecret()
            let record = KeyFactory.record(for: secret, tenantId: tenant.id, at: now)
            try store.createTenant(tenant, firstKey: record)
            return IssuedKey(secret: secret, keyId: record.id, prefix: record.prefix, tenantId: tenant.id,
                             tenantName: tenant.name, tenantCreated: true)
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

    private func tenantNames(_ store: SQLiteTenantStore) throws -> [String] {
        var names: [String] = []
        var cursor: String?
        repeat {
            let page = try store.tenants(after: cursor, limit: 500)
            names += page.items.map(\.name)
            cursor = page.nextCursor
        } while cursor != nil
        return names
    }
}
