// Migrated databases and model values for the store tests.
import Emulation
import Foundation
@testable import Storage
import Stores

/// Runs `body` with a migrated database in a fresh file.
@discardableResult
func withDatabase<T>(readerCount: Int = 2, _ body: (Database) throws -> T) throws -> T {
    try withTemporaryPath { path throws in
        let database = try openDatabase(path: path, readerCount: readerCount)
        defer { database.close() }
        return try body(database)
    }
}

/// A date of whole milliseconds, as Storage keeps them.
func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

func makeTenant(_ n: Int) -> (Tenant, APIKeyRecord) {
    let tenant = Tenant(id: "ten_\(n)", name: "tenant \(n)", createdAt: date(1_767_225_600_000 + Int64(n)))
    let key = APIKeyRecord(
        id: "key_\(n)", tenantId: tenant.id, hash: String(repeating: "\(n % 10)", count: 8) + "-\(n)", prefix: "bg_\(n)",
        createdAt: tenant.createdAt)
    return (tenant, key)
}

func makeDevice(_ id: String, tenantId: String) -> Device {
    Device(id: id, tenantId: tenantId, name: "Device \(id)", createdAt: date(1_767_225_600_123))
}

/// The `advance` benchmark's scripted app: fetch and app refresh, which resubmits itself every 15 minutes.
func scriptedApp(_ bundleId: String, identifier: String, installedAt: VirtualInstant) -> App {
    App(
        bundleId: bundleId,
        manifest: AppManifest(backgroundModes: [.fetch, .processing], permittedIdentifiers: [identifier]),
        installedAt: installedAt,
        behavior: AppBehavior(runs: [
            .fetch: RunBehavior(completeAfter: .seconds(3), result: .newData),
            .appRefresh: RunBehavior(completeAfter: .seconds(5), result: .success, resubmit: true, resubmitAfter: .seconds(900)),
        ]))
}
