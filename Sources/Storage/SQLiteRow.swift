// The row a statement stands on, with typed column reads.
import CSQLite

/// The current row of a stepping ``SQLiteStatement``: valid only until the statement steps or resets,
/// so read what you need inside the callback and do not keep it.
///
/// ```swift
/// let name: String = try row[1]
/// let revokedAt: String? = try row[5]
/// ```
public struct SQLiteRow {
    let statement: SQLiteStatement

    /// How many columns the row has.
    public var count: Int { Int(sqlite3_column_count(statement.handle)) }

    /// Whether the column holds NULL.
    public func isNull(_ index: Int) -> Bool { sqlite3_column_type(statement.handle, Int32(index)) == SQLITE_NULL }

    /// The raw value of a column (0-based).
    public func value(at index: Int) -> SQLiteValue {
        let handle = statement.handle
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // Text first, then its length (https://sqlite.org/c3ref/column_blob.html); may hold NULs.
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            let length = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
        case SQLITE_BLOB:
            // A zero-length blob comes back as a nil pointer.
            guard let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            let length = Int(sqlite3_column_bytes(handle, column))
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: length)))
        default:
            return .null
        }
    }

    /// A column (0-based) as `T`: an `SQLITE_MISMATCH` error when the storage class does not fit
    /// (NULL fits only an optional).
    public func get<T: SQLiteValueConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T {
        let value = value(at: index)
        guard let converted = T(sqliteValue: value) else {
            throw SQLiteError(
                extendedResultCode: SQLITE_MISMATCH,
                message: "column \(index) (\(statement.columnName(index))) holds \(value.storageClass), not \(T.self)",
                sql: statement.sql)
        }
        return converted
    }

    /// A column (0-based) as `T`; see ``get(_:as:)``.
    public subscript<T: SQLiteValueConvertible>(_ index: Int) -> T {
        get throws { try get(index) }
    }
}

@available(*, unavailable, message: "a row is a view of a statement that belongs to its connection's owner")
extension SQLiteRow: Sendable {}
