// Turning SQLite failures into the `StoreError`s a store's caller can act on.
import Emulation
import Stores

enum StoreFailure {
    /// How a duplicate is named to the caller, by the column SQLite reports.
    private static let duplicateNames = [
        "tenants.id": "tenant id", "tenants.name": "tenant name",
        "api_keys.id": "key id", "api_keys.hash": "key hash",
        "devices.id": "device id",
    ]

    /// Runs `body`, mapping a UNIQUE violation to `StoreError.duplicate` and a database that cannot be reached,
    /// read or written (locked, an I/O error, a full disk, a damaged file) to `StoreError.unavailable`; any other
    /// error passes through (a defect: an internal error).
    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError where error.isUniqueViolation {
            let column = error.constrainedColumns.first ?? "row"
            throw StoreError.duplicate(duplicateNames[column] ?? column)
        } catch let error as SQLiteError where unavailableCodes.contains(error.code) {
            throw StoreError.unavailable(error.message)
        }
    }

    private static let unavailableCodes: Set<SQLiteError.Code> = [
        .busy, .locked, .ioError, .full, .cantOpen, .readOnly, .corrupt, .notADatabase,
    ]
}
