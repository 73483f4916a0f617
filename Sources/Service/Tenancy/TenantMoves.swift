import Foundation
import Stores

/// Moving a tenant between shards (issue 30), the service's side: fence its writes, export its rows, import them
/// on another shard, lift the fence. (Deleting it from the source is ``TenantService/deleteTenant(id:)``.)
///
/// The fence is kept in the store as well as in memory (``TenantFences``), so that a source restarted in the middle
/// of a move is still fenced; the import starts the tenant unfenced on the target.
public struct TenantMoves: Sendable {
    /// What the caller asked for cannot be done.
    public enum Refusal: Error, Equatable, Sendable {
        /// There is no tenant with this id.
        case noSuchTenant(String)
        /// The fence is set, but writes of the tenant were still in flight when the wait ended.
        case writesInFlight(tenantId: String, count: Int)
        /// The tenant (or one of its keys or devices) exists here already: `what` names it.
        case exists(String)
        /// The tenant's export would take about `bytes`, past `limit` (the largest import a shard takes): it is
        /// not built, so that a tenant too large to move cannot take the source's memory.
        case exportTooLarge(tenantId: String, bytes: Int, limit: Int)
    }

    public let store: any TenantMoveStore
    public let fences: TenantFences
    /// How long a fence waits for the writes in flight, in seconds.
    public var fenceTimeout: TimeInterval
    /// The largest export built, in bytes (about: ``TenantMoveStore/exportSize(tenantId:)``): the largest body an
    /// import takes (`--max-upload-mib`); nil for no bound.
    public var maximumExportBytes: Int?
    /// Called after an import with the event ids it took (the live fan-out skips them).
    let imported: @Sendable (ImportedTenant) -> Void

    /// - Parameter imported: called after each import (the event hub skips its ids; the credentials' cache forgets).
    public init(
        store: any TenantMoveStore, fences: TenantFences, fenceTimeout: TimeInterval = 30,
        maximumExportBytes: Int? = nil, imported: @escaping @Sendable (ImportedTenant) -> Void = { _ in }
    ) {
        self.store = store
        self.fences = fences
        self.fenceTimeout = fenceTimeout
        self.maximumExportBytes = maximumExportBytes
        self.imported = imported
    }

    /// The store's fences, for the start-up.
    public static func fences(of store: any TenantMoveStore) throws -> TenantFences {
        TenantFences(fenced: try store.fencedTenants())
    }

    /// Fences the tenant's writes and waits for those in flight: once it returns, an export holds every write
    /// acknowledged, and no write is acknowledged until ``unfence(tenantId:)``.
    public func fence(tenantId: String) throws {
        guard try store.fence(tenantId: tenantId) else { throw Refusal.noSuchTenant(tenantId) }
        let left = fences.fence(tenantId, timeout: fenceTimeout)
        guard left == 0 else { throw Refusal.writesInFlight(tenantId: tenantId, count: left) }
    }

    /// Lifts the fence: the tenant's writes are taken again.
    public func unfence(tenantId: String) throws {
        let exists = try store.unfence(tenantId: tenantId)
        fences.unfence(tenantId)
        guard exists else { throw Refusal.noSuchTenant(tenantId) }
    }

    /// Whether the tenant's writes are fenced.
    public func isFenced(tenantId: String) -> Bool { fences.isFenced(tenantId) }

    /// The tenant's whole state.
    public func export(tenantId: String) throws -> TenantExport {
        if let limit = maximumExportBytes {
            guard let size = try store.exportSize(tenantId: tenantId) else { throw Refusal.noSuchTenant(tenantId) }
            guard size <= limit else { throw Refusal.exportTooLarge(tenantId: tenantId, bytes: size, limit: limit) }
        }
        guard let document = try store.export(tenantId: tenantId) else { throw Refusal.noSuchTenant(tenantId) }
        return document
    }

    /// Creates the tenant of `document` with all its rows, unfenced.
    public func importTenant(_ document: TenantExport) throws -> ImportedTenant {
        let outcome: ImportedTenant
        do {
            outcome = try store.importTenant(document)
        } catch StoreError.duplicate(let what) {
            throw Refusal.exists(what)
        }
        fences.unfence(document.tenantId)
        imported(outcome)
        return outcome
    }

    /// `id`, read by a client of `tenantId` on a shard the tenant was moved from, as it is here.
    public func eventIdAfterMoves(_ id: Int64, tenantId: String) throws -> Int64 {
        try store.eventIdAfterMoves(id, tenantId: tenantId)
    }

    /// `id` of this shard as the clients of `tenantId` know it (the id it had where it was first recorded).
    public func originalEventId(_ id: Int64, tenantId: String) throws -> Int64 {
        try store.originalEventId(id, tenantId: tenantId)
    }
}
