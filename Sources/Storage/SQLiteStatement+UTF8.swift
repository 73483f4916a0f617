// Binding text that is already UTF-8 bytes, without making a `String` of it first.
import CSQLite

extension SQLiteStatement {
    /// Binds `utf8` as text to the parameter at `index` (1-based, as in SQLite); SQLite copies the bytes before
    /// this returns. Empty bytes bind the empty text, not NULL. The bytes must be valid UTF-8.
    func bindText(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) throws {
        let position = Int32(index)
        let code = utf8.isEmpty
            ? sqlite3_bind_text(handle, position, "", 0, SQLITE_TRANSIENT_SWIFT)
            : utf8.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(handle, position, $0.baseAddress, Int32($0.count), SQLITE_TRANSIENT_SWIFT)
            }
        guard code == SQLITE_OK else {
            throw SQLiteError(
                extendedResultCode: code, message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))), sql: sql)
        }
    }
}
