import Locking

/// The bytes last encoded for each resource's answer body, reused while the resource's stamp is equal: a hot read
/// (a device, polled by every CI job and dashboard) costs taking its stamp and comparing it, not building its body
/// and encoding it (measured: encoding a device's body was 43 % of a `GET /v1/devices/{id}`'s CPU, and building the
/// body to compare it, its dates formatted and its policy looked up, 6 % after that).
///
/// A stamp holds everything the body is made of, unformatted (``DeviceBody/Stamp``): equal stamps make equal
/// bodies. No invalidation is needed: a stale entry's stamp simply is not equal to the one being answered, whose
/// body is encoded and replaces it. Bounded: past `limit` entries, the table starts again empty.
final class EncodedBodyCache<Stamp: Equatable & Sendable>: Sendable {
    private let entries = PlainLock<[String: (stamp: Stamp, bytes: [UInt8])]>([:])
    let limit: Int

    init(limit: Int) { self.limit = max(1, limit) }

    /// The bytes kept for `key` when they were made from an equal `stamp`; otherwise `encode()`'s, kept.
    func bytes(for key: String, stamp: Stamp, encode: () throws -> [UInt8]) rethrows -> [UInt8] {
        if let bytes = entries.withLock({ entries -> [UInt8]? in
            guard let entry = entries[key], entry.stamp == stamp else { return nil }
            return entry.bytes
        }) {
            return bytes
        }
        let bytes = try encode()
        entries.withLock { entries in
            if entries.count >= limit, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = (stamp, bytes)
        }
        return bytes
    }

    /// Entries kept now.
    var count: Int { entries.withLock { $0.count } }
}
