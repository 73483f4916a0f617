// The opaque cursors of paginated lists.
import Emulation
import Foundation
import Stores

/// A position in a list ordered by `seq` (the table's autoincrement key), handed out as an opaque token:
/// base64url (no padding) of `<list>:<seq>`. The list name makes a cursor of one list invalid in another.
struct PageCursor: Equatable {
    var list: String
    var seq: Int64

    var token: String {
        Data("\(list):\(seq)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The cursor of `token` for `list`: `StoreError.invalidCursor` when this store did not make it.
    static func decode(_ token: String, list: String) throws -> PageCursor {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard token.count <= 64, let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
            text.hasPrefix(list + ":"), let seq = Int64(text.dropFirst(list.count + 1)), seq >= 0,
            PageCursor(list: list, seq: seq).token == token  // one spelling per cursor
        else { throw StoreError.invalidCursor }
        return PageCursor(list: list, seq: seq)
    }

    /// The page size a store uses for a requested `limit`: at least 1, at most 10,000 (the API allows 1–500).
    static func pageSize(_ limit: Int) -> Int { min(max(limit, 1), 10_000) }

    /// One page from rows fetched with `LIMIT limit + 1`, in `seq` order: the extra row only says there is more.
    static func page<Item: Sendable>(_ rows: [(seq: Int64, item: Item)], limit: Int, list: String) -> Page<Item> {
        let items = rows.prefix(limit)
        let next = rows.count > limit ? items.last.map { PageCursor(list: list, seq: $0.seq).token } : nil
        return Page(items: items.map(\.item), nextCursor: next)
    }
}
