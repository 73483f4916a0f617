/// Failures of a store that a caller can act on; anything else a store throws is an internal error.
public enum StoreError: Error, Equatable, Sendable {
    /// The cursor was not made by this store.
    case invalidCursor
    /// A row with the same unique key exists already (`what` names it).
    case duplicate(String)
    /// The database could not be reached or written.
    case unavailable(String)
}
