// The answers to requests that carried an idempotency key, in the transaction of the write they describe.
import Emulation
import Foundation
import Stores

/// ``IdempotencyStore`` on a ``Database``: table `idempotency` (migration `005_idempotency`), one row per tenant
/// and key. ``transaction(_:)`` is the database's write transaction: the device and tenant stores' writes made
/// inside it on the same thread run in savepoints of it, so an answer commits with the write it describes.
public struct SQLiteIdempotencyStore: IdempotencyStore {
    public let database: Database
    /// How many expired answers one save deletes at most: pruning costs a bounded amount per write.
    public static let pruneBatch = 64

    public init(database: Database) {
        self.database = database
    }

    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try StoreFailure.mapping { try database.write { _ in try body() } }
    }

    public func answer(tenantId: String, key: String, notBefore: Date) throws -> StoredAnswer? {
        try StoreFailure.mapping {
            try database.read { db in
                try db.queryFirst(
                    """
                    SELECT method, path, body_sha256, status, headers, body, created_at FROM idempotency
                    WHERE tenant_id = ? AND key = ? AND created_at >= ?
                    """,
                    [tenantId, key, StorageDate.text(notBefore)]
                ) { row in
                    let headers = try JSONDecoder().decode([[String]].self, from: Data(try row.get(4, as: String.self).utf8))
                    let created = try row.get(6, as: String.self)
                    return StoredAnswer(
                        fingerprint: .init(
                            method: try row.get(0), path: try row.get(1), bodySHA256: try row.get(2)),
                        status: try row.get(3), headers: headers, body: try row.get(5, as: [UInt8].self),
                        createdAt: StorageDate.date(created) ?? notBefore)
                }
            }
        }
    }

    public func save(_ answer: StoredAnswer, tenantId: String, key: String, expiringBefore: Date) throws {
        let headers = String(decoding: try JSONEncoder().encode(answer.headers), as: UTF8.self)
        try StoreFailure.mapping {
            try database.write { db in
                try db.execute(
                    """
                    DELETE FROM idempotency WHERE rowid IN
                        (SELECT rowid FROM idempotency WHERE created_at < ? ORDER BY created_at LIMIT ?)
                    """,
                    [StorageDate.text(expiringBefore), Self.pruneBatch])
                // A row left for this key is expired (the caller found none live): the new answer replaces it.
                try db.execute(
                    """
                    INSERT OR REPLACE INTO idempotency
                        (tenant_id, key, method, path, body_sha256, status, headers, body, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        tenantId, key, answer.fingerprint.method, answer.fingerprint.path, answer.fingerprint.bodySHA256,
                        answer.status, headers, answer.body, StorageDate.text(answer.createdAt),
                    ])
            }
        }
    }

    /// How many answers are stored (live or expired), for tests and the operator.
    public func count() throws -> Int {
        try database.read { try $0.scalar("SELECT count(*) FROM idempotency", as: Int.self) ?? 0 }
    }
}
