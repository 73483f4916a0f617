/// Where a reconnecting event stream client says which event it saw last.
public enum LastEventID {
    /// The `Last-Event-ID` request header that `EventSource` sends on reconnection (WHATWG HTML §9.2.4), or,
    /// when it is absent or empty, the query parameter `queryName` (for clients that resume by URL). Nil when
    /// neither is present and non-empty.
    public static func from(_ request: HTTPRequest, queryName: String = "lastEventId") -> String? {
        if let header = request.headers["Last-Event-ID"], !header.isEmpty { return header }
        if let query = request.queryValue(queryName), !query.isEmpty { return query }
        return nil
    }
}
