// An SQLite failure, kept whole: the result codes, SQLite's message and the statement that failed.
import CSQLite

/// A failure reported by SQLite (or by this wrapper, for misuse such as a wrong number of arguments).
///
/// It keeps the primary and extended result codes, SQLite's message and the SQL that failed, so that a caller
/// can match it in a `catch`:
///
/// ```swift
/// do { try connection.execute("INSERT …", [id]) }
/// catch let error as SQLiteError where error.isUniqueViolation { … }
/// catch SQLiteError.Code.busy { … }
/// ```
///
/// Arguments are deliberately left out of the description: they may be secrets (key hashes, tokens).
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` = 2067, say); see https://sqlite.org/rescode.html.
    public var extendedResultCode: Int32
    /// The SQLite message (`UNIQUE constraint failed: tenants.name`).
    public var message: String
    /// The SQL being prepared or run, when there was one.
    public var sql: String?

    /// Creates an error from an (extended) result code.
    public init(extendedResultCode: Int32, message: String? = nil, sql: String? = nil) {
        self.extendedResultCode = extendedResultCode
        self.message = message ?? String(cString: sqlite3_errstr(extendedResultCode))
        self.sql = sql
    }

    /// The primary result code: the low 8 bits of the extended one (`SQLITE_CONSTRAINT` = 19, say).
    public var resultCode: Int32 { extendedResultCode & 0xFF }
    /// The primary result code as a matchable value.
    public var code: Code { Code(rawValue: resultCode) }
    /// The extended result code as a matchable value.
    public var extendedCode: Code { Code(rawValue: extendedResultCode) }

    /// Any constraint failed: UNIQUE, PRIMARY KEY, FOREIGN KEY, NOT NULL, CHECK.
    public var isConstraintViolation: Bool { resultCode == SQLITE_CONSTRAINT }
    /// A UNIQUE or PRIMARY KEY constraint failed: the row exists already.
    public var isUniqueViolation: Bool {
        extendedCode == .constraintUnique || extendedCode == .constraintPrimaryKey
    }
    /// A FOREIGN KEY constraint failed: the referenced row does not exist (or still has children).
    public var isForeignKeyViolation: Bool { extendedCode == .constraintForeignKey }
    /// Another connection holds a lock SQLite could not wait out (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    public var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }

    /// For a UNIQUE violation, the constrained columns as SQLite names them (`["tenants.name"]`).
    public var constrainedColumns: [String] {
        guard isUniqueViolation, let colon = message.range(of: "failed: ") else { return [] }
        return message[colon.upperBound...].split(separator: ",").map { $0.trimmingSpaces }
    }

    public var description: String {
        var text = "SQLite error \(resultCode)"
        if extendedResultCode != resultCode { text += " (extended \(extendedResultCode))" }
        text += ": \(message)"
        if let sql { text += " — while running `\(sql)`" }
        return text
    }

    /// A result code, primary or extended, that can be matched against an error in a `catch` clause.
    public struct Code: RawRepresentable, Hashable, Sendable {
        public var rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// The primary code of this one.
        public var primary: Code { Code(rawValue: rawValue & 0xFF) }

        public static let error = Code(rawValue: SQLITE_ERROR)
        public static let busy = Code(rawValue: SQLITE_BUSY)
        public static let locked = Code(rawValue: SQLITE_LOCKED)
        public static let readOnly = Code(rawValue: SQLITE_READONLY)
        public static let ioError = Code(rawValue: SQLITE_IOERR)
        public static let corrupt = Code(rawValue: SQLITE_CORRUPT)
        public static let full = Code(rawValue: SQLITE_FULL)
        public static let cantOpen = Code(rawValue: SQLITE_CANTOPEN)
        public static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
        public static let mismatch = Code(rawValue: SQLITE_MISMATCH)
        public static let misuse = Code(rawValue: SQLITE_MISUSE)
        public static let range = Code(rawValue: SQLITE_RANGE)
        public static let notADatabase = Code(rawValue: SQLITE_NOTADB)
        public static let abort = Code(rawValue: SQLITE_ABORT)
        // Extended codes: the C macros are `(SQLITE_CONSTRAINT | (n<<8))`, which Swift does not import.
        public static let constraintCheck = Code(rawValue: SQLITE_CONSTRAINT | (1 << 8))
        public static let constraintForeignKey = Code(rawValue: SQLITE_CONSTRAINT | (3 << 8))
        public static let constraintNotNull = Code(rawValue: SQLITE_CONSTRAINT | (5 << 8))
        public static let constraintPrimaryKey = Code(rawValue: SQLITE_CONSTRAINT | (6 << 8))
        public static let constraintUnique = Code(rawValue: SQLITE_CONSTRAINT | (8 << 8))

        /// Matches an error whose code is this one: a primary pattern matches every extended code under it.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            guard let error = error as? SQLiteError else { return false }
            return pattern.rawValue == pattern.primary.rawValue
                ? error.code == pattern : error.extendedCode == pattern
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
