// The five SQLite storage classes, and the Swift types that bind to and read from them.
import Foundation

/// A value as SQLite stores it: one of its five storage classes (https://sqlite.org/datatype3.html).
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The storage class name, for messages (`INTEGER`, `TEXT`, …).
    public var storageClass: String {
        switch self {
        case .null: "NULL"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }
}

/// A Swift type that can be bound to a statement parameter and read back from a column.
///
/// Reading is strict about storage classes, except where no information is lost (an `INTEGER` read as `Double`,
/// `TEXT` read as bytes); a mismatch is an ``SQLiteError`` with code `SQLITE_MISMATCH`.
public protocol SQLiteValueConvertible {
    /// The value to bind.
    var sqliteValue: SQLiteValue { get }
    /// The Swift value of a column, or nil when the column's storage class does not fit.
    init?(sqliteValue: SQLiteValue)
}

extension SQLiteValue: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { self }
    public init?(sqliteValue: SQLiteValue) { self = sqliteValue }
}

extension Int64: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue else { return nil }
        self = value
    }
}

extension Int: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue, let int = Int(exactly: value) else { return nil }
        self = int
    }
}

extension Int32: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue, let int = Int32(exactly: value) else { return nil }
        self = int
    }
}

extension Double: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .real(self) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        // A REAL column may store an integral value as INTEGER (https://sqlite.org/datatype3.html §3).
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

/// Booleans are stored as the integers 0 and 1, as SQLite itself does.
extension Bool: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue else { return nil }
        self = value != 0
    }
}

extension String: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(self) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let value) = sqliteValue else { return nil }
        self = value
    }
}

extension Array: SQLiteValueConvertible where Element == UInt8 {
    public var sqliteValue: SQLiteValue { .blob(self) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .blob(let bytes): self = bytes
        case .text(let text): self = Array(text.utf8)
        default: return nil
        }
    }
}

extension Data: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .blob([UInt8](self)) }
    public init?(sqliteValue: SQLiteValue) {
        guard let bytes = [UInt8](sqliteValue: sqliteValue) else { return nil }
        self = Data(bytes)
    }
}

/// An optional binds `NULL` when nil and reads `NULL` as nil.
extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
    public init?(sqliteValue: SQLiteValue) {
        if case .null = sqliteValue {
            self = .none
        } else if let value = Wrapped(sqliteValue: sqliteValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}
