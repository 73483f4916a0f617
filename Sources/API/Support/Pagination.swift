import Emulation
import HTTPServer
import Service
import Stores

/// `?limit=` (1–500, default 50) and `?cursor=` of list routes.
struct Pagination {
    var limit: Int
    var cursor: String?

    static let defaultLimit = 50
    static let maximumLimit = 500

    init(_ request: HTTPRequest) throws {
        cursor = request.queryValue("cursor").flatMap { $0.isEmpty ? nil : $0 }
        guard let text = request.queryValue("limit") else { limit = Self.defaultLimit; return }
        guard let value = Int(text), (1...Self.maximumLimit).contains(value) else {
            throw Problems.invalid("limit", "must be an integer from 1 to \(Self.maximumLimit)")
        }
        limit = value
    }

    /// A page of an in-memory list; the cursor is the index of the next item.
    func page<T>(of items: [T]) throws -> Page<T> {
        var start = 0
        if let cursor {
            guard cursor.hasPrefix("i"), let index = Int(cursor.dropFirst()), index >= 0, index <= items.count else {
                throw StoreError.invalidCursor
            }
            start = index
        }
        let end = min(items.count, start + limit)
        return Page(items: Array(items[start..<end]), nextCursor: end < items.count ? "i\(end)" : nil)
    }
}

/// The body of every list: `{items, nextCursor}`.
struct PageBody<Item: Encodable>: Encodable {
    var items: [Item]
    @ExplicitNull var nextCursor: String?
}
