import CompactJSON
import Locking

/// The bytes last encoded for each resource's answer body, reused while the body is equal: a hot read (a device,
/// polled by every CI job and dashboard) costs building its body value and comparing it, not encoding it
/// (measured: encoding a device's body was 43 % of a `GET /v1/devices/{id}`'s CPU).
///
/// No invalidation is needed: a stale entry simply is not equal to the body being answered, which is encoded and
/// replaces it. Bounded: past `limit` entries, the table starts again empty.
final class EncodedBodyCache<Body: Encodable & Equatable & Sendable>: Sendable {
    private let entries = PlainLock<[String: (body: Body, bytes: [UInt8])]>([:])
    let limit: Int

    init(limit: Int) { self.limit = max(1, limit) }

    /// `body`'s JSON bytes (compact, sorted keys: ``JSONBody``'s encoder), from the cache when the body kept for
    /// `key` is equal to it.
    func bytes(for key: String, _ body: Body, encoder: CompactJSONEncoder) throws -> [UInt8] {
        if let bytes = entries.withLock({ entries -> [UInt8]? in
            guard let entry = entries[key], entry.body == body else { return nil }
            return entry.bytes
        }) {
            return bytes
        }
        let bytes = try encoder.encode(body)
        entries.withLock { entries in
            if entries.count >= limit, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = (body, bytes)
        }
        return bytes
    }

    /// Entries kept now.
    var count: Int { entries.withLock { $0.count } }
}
