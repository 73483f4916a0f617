// A prepared statement: binding, stepping, and the row it stands on.
import CSQLite

/// The statement arguments of `execute` and `query`: `[id, name, nil]`.
public typealias SQLiteArguments = [(any SQLiteValueConvertible)?]

/// A prepared statement of one ``SQLiteConnection``, usable only where the connection is.
///
/// Get one from ``SQLiteConnection/cachedStatement(_:)`` (reused, keyed by SQL) or
/// ``SQLiteConnection/makeStatement(_:)``. A statement that stopped before `SQLITE_DONE` keeps a read
/// transaction open, so every helper here resets it when done; a caller who steps by hand must call ``reset()``.
public final class SQLiteStatement {
    /// The SQL it was prepared from.
    public let sql: String
    let handle: OpaquePointer
    private let connectionHandle: OpaquePointer

    init(connection: OpaquePointer, sql: String) throws {
        var statement: OpaquePointer?
        // The tail points into the C string, so it is read inside `withCString`, while that string lives.
        let (code, hasTail) = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(connection, text, -1, &statement, &tail)
            return (code, tail.map { String(cString: $0).contains(where: { !$0.isWhitespace }) } ?? false)
        }
        guard code == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw SQLiteError(extendedResultCode: code, message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        guard let statement else {  // only whitespace or comments
            throw SQLiteError(extendedResultCode: SQLITE_MISUSE, message: "no statement", sql: sql)
        }
        // One statement only: a second one would be silently ignored, so refuse it (use `execute(_:)` for scripts).
        if hasTail {
            sqlite3_finalize(statement)
            throw SQLiteError(
                extendedResultCode: SQLITE_MISUSE, message: "more than one statement: use execute(_:) for scripts", sql: sql)
        }
        self.sql = sql
        self.handle = statement
        self.connectionHandle = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// How many `?` parameters the statement has.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }
    /// How many columns a row of it has.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }
    /// The name of a result column.
    public func columnName(_ index: Int) -> String { String(cString: sqlite3_column_name(handle, Int32(index))) }
    /// Whether it does not write (https://sqlite.org/c3ref/stmt_readonly.html).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// Resets the statement and binds `arguments`, one per parameter, in order.
    public func bind(_ arguments: SQLiteArguments) throws {
        reset()
        sqlite3_clear_bindings(handle)
        guard arguments.count == parameterCount else {
            throw SQLiteError(
                extendedResultCode: SQLITE_RANGE,
                message: "the statement takes \(parameterCount) arguments, not \(arguments.count)", sql: sql)
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument?.sqliteValue ?? .null, at: offset + 1)
        }
    }

    /// Binds one value to the parameter at `index` (1-based, as in SQLite).
    public func bind(_ value: SQLiteValue, at index: Int) throws {
        let position = Int32(index)
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, position)
        case .integer(let int):
            code = sqlite3_bind_int64(handle, position, int)
        case .real(let double):
            code = sqlite3_bind_double(handle, position, double)
        case .text(let text):
            var text = text
            try text.withUTF8 { try bindText($0, at: index) }
            return
        case .blob(let bytes):
            // A nil pointer would bind NULL, so an empty blob is bound as a zero-length blob explicitly.
            code = bytes.isEmpty
                ? sqlite3_bind_zeroblob(handle, position, 0)
                : bytes.withUnsafeBytes {
                    sqlite3_bind_blob(handle, position, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT_SWIFT)
                }
        }
        try check(code)
    }

    /// Binds `utf8` as text to the parameter at `index` (1-based, as in SQLite), with its byte length, so that a
    /// NUL inside does not cut it; SQLite copies the bytes before this returns. Empty bytes bind the empty text, not
    /// NULL. The bytes must be valid UTF-8.
    func bindText(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) throws {
        let position = Int32(index)
        let code = utf8.isEmpty
            ? sqlite3_bind_text(handle, position, "", 0, SQLITE_TRANSIENT_SWIFT)
            : utf8.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(handle, position, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT_SWIFT)
            }
        try check(code)
    }

    /// Binds `utf8` as text to the parameter at `index` without SQLite copying it (`SQLITE_STATIC`): the bytes must
    /// stay where they are until the statement is stepped to its end and its bindings cleared (``clearBindings()``),
    /// which the caller does before they go. Saves a copy (and an allocation) per value bound in a hot loop.
    func bindStaticText(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) throws {
        guard let base = utf8.baseAddress, !utf8.isEmpty else { return try bindText(utf8, at: index) }
        let code = base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
            sqlite3_bind_text(handle, Int32(index), $0, Int32(utf8.count), SQLITE_STATIC_SWIFT)
        }
        try check(code)
    }

    /// Sets every parameter back to NULL: no binding keeps pointing at bytes bound with ``bindStaticText(_:at:)``.
    func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    /// Advances to the next row: the row, or nil when the statement is done.
    ///
    /// The row is valid only until the next `step()` or `reset()`. On error the statement is reset.
    public func step() throws -> SQLiteRow? {
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return SQLiteRow(statement: self)
        case SQLITE_DONE:
            return nil
        case let code:
            let error = SQLiteError(
                extendedResultCode: code, message: String(cString: sqlite3_errmsg(connectionHandle)), sql: sql)
            reset()
            throw error
        }
    }

    /// Rewinds the statement so it can run again; its bindings stay. Releases the read lock it held.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Binds `arguments` and runs the statement to its end, ignoring any rows.
    public func execute(_ arguments: SQLiteArguments = []) throws {
        try bind(arguments)
        defer { reset() }
        while try step() != nil {}
    }

    /// Binds `arguments` and maps every row through `transform`.
    public func query<T>(_ arguments: SQLiteArguments = [], _ transform: (SQLiteRow) throws -> T) throws -> [T] {
        try bind(arguments)
        defer { reset() }
        var results: [T] = []
        while let row = try step() {
            results.append(try transform(row))
        }
        return results
    }

    /// Binds `arguments` and maps the first row through `transform`; nil when there is none.
    public func queryFirst<T>(_ arguments: SQLiteArguments = [], _ transform: (SQLiteRow) throws -> T) throws -> T? {
        try bind(arguments)
        defer { reset() }
        guard let row = try step() else { return nil }
        return try transform(row)
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else {
            throw SQLiteError(
                extendedResultCode: code, message: String(cString: sqlite3_errmsg(connectionHandle)), sql: sql)
        }
    }
}

@available(*, unavailable, message: "a statement belongs to its connection's owner")
extension SQLiteStatement: Sendable {}

/// `SQLITE_TRANSIENT`: SQLite copies the bytes before the bind call returns. The C macro is a cast Swift cannot import.
let SQLITE_TRANSIENT_SWIFT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// `SQLITE_STATIC`: SQLite uses the bytes where they are, without copying them; they must outlive the binding.
let SQLITE_STATIC_SWIFT: sqlite3_destructor_type? = nil
