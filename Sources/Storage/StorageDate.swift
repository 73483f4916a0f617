// How Storage writes a `Date`: RFC 3339 text, UTC, milliseconds.
import Emulation
import Foundation

/// Every date Storage writes, in a column or inside a document, is RFC 3339 text in UTC with milliseconds
/// (`2026-01-01T08:00:00.123Z`): readable in the `sqlite3` shell, sortable as text, and what the API shows.
///
/// A date is kept to the millisecond (rounded to the nearest), so a `Date` built from whole milliseconds
/// (`Date(timeIntervalSince1970: Double(ms) / 1000)`) reads back equal.
enum StorageDate {
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static func text(_ date: Date) -> String {
        RFC3339.format(VirtualInstant(milliseconds: milliseconds(date)))
    }

    /// The date of a text Storage wrote; nil for anything else.
    static func date(_ text: String) -> Date? {
        RFC3339.parse(text).map { date(milliseconds: $0.milliseconds) }
    }

    /// The date in a column: a `SQLITE_MISMATCH` error when it is not RFC 3339 text.
    static func read(_ row: SQLiteRow, _ index: Int) throws -> Date {
        let text: String = try row[index]
        guard let date = date(text) else {
            throw SQLiteError(extendedResultCode: SQLiteError.Code.mismatch.rawValue, message: "not an RFC 3339 date: \(text)")
        }
        return date
    }

    /// The date in a nullable column.
    static func readOptional(_ row: SQLiteRow, _ index: Int) throws -> Date? {
        row.isNull(index) ? nil : try read(row, index)
    }
}
