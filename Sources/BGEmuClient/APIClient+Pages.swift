extension APIClient {
    /// Every item of a paged list (`items`, `nextCursor`), following the cursor to the last page; `body(page)` is
    /// called with each page's items as it arrives.
    public func forEachPage(
        _ path: String, query: [(String, String)] = [], headers: [(String, String)] = [], limit: Int = 500,
        _ body: ([JSONValue]) throws -> Void
    ) throws {
        var cursor: String?
        repeat {
            var pageQuery = query + [("limit", String(limit))]
            if let cursor { pageQuery.append(("cursor", cursor)) }
            let page = try json("GET", path, query: pageQuery, headers: headers)
            try body(page["items"]?.arrayValue ?? [])
            let next = page["nextCursor"]?.stringValue
            guard next != cursor else { break }  // a cursor that does not move would page forever
            cursor = next
        } while cursor != nil
    }

    /// Every item of a paged list.
    public func allItems(
        _ path: String, query: [(String, String)] = [], headers: [(String, String)] = [], limit: Int = 500
    ) throws -> [JSONValue] {
        var items: [JSONValue] = []
        try forEachPage(path, query: query, headers: headers, limit: limit) { items += $0 }
        return items
    }
}
