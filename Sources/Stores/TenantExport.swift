import Foundation

/// One tenant's whole state as rows, for a move between shards (issue 30): what `GET /v1/admin/tenants/{id}/export`
/// answers and `POST /v1/admin/tenants/import` takes, as JSON.
///
/// The rows are the tables' own, column by column (``Table``), so that a column added by a later migration moves
/// with no change here; the document names the migrations of the database it came from (``schema``), and an import
/// into a database without all of them is refused.
public struct TenantExport: Codable, Sendable, Equatable {
    /// The document's kind, always ``formatName``.
    public var format: String
    /// The document's version, ``currentVersion``.
    public var version: Int
    public var tenantId: String
    /// The migrations applied to the source database, in order.
    public var schema: [String]
    /// The greatest event id the source had handed out when the export was read (its `AUTOINCREMENT` counter):
    /// every event id a client of the tenant can hold from the source is at most this. The target tells such an id
    /// from its own by it (see `EventIdMoves` in Storage).
    public var sourceLatestEventId: Int64
    /// The tenant's rows, table by table (the `tenants` row first).
    public var tables: [Table]

    public static let formatName = "bgemu.tenant-export"
    public static let currentVersion = 1

    public init(tenantId: String, schema: [String], sourceLatestEventId: Int64, tables: [Table]) {
        format = Self.formatName
        version = Self.currentVersion
        self.tenantId = tenantId
        self.schema = schema
        self.sourceLatestEventId = sourceLatestEventId
        self.tables = tables
    }

    /// The rows of one table: its column names, then one array of values per row, in the columns' order.
    public struct Table: Codable, Sendable, Equatable {
        public var name: String
        public var columns: [String]
        public var rows: [[Value]]

        public init(name: String, columns: [String], rows: [[Value]]) {
            self.name = name
            self.columns = columns
            self.rows = rows
        }
    }

    /// A column value with its SQLite storage class kept: `null`, an integer as a JSON integer, text as a JSON
    /// string, a real as `{"real": 0.5}` and a blob as `{"base64": "…"}` (JSON numbers alone would not tell 1 from
    /// 1.0, nor can JSON hold bytes).
    public enum Value: Codable, Sendable, Equatable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])

        private enum Keys: String, CodingKey {
            case real
            case base64
        }

        public init(from decoder: any Decoder) throws {
            if let object = try? decoder.container(keyedBy: Keys.self) {
                if let real = try object.decodeIfPresent(Double.self, forKey: .real) {
                    self = .real(real)
                    return
                }
                let text = try object.decode(String.self, forKey: .base64)
                guard let data = Data(base64Encoded: text) else {
                    throw DecodingError.dataCorruptedError(forKey: .base64, in: object, debugDescription: "not base64")
                }
                self = .blob([UInt8](data))
                return
            }
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let integer = try? single.decode(Int64.self) {
                self = .integer(integer)
            } else {
                self = .text(try single.decode(String.self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .null:
                var single = encoder.singleValueContainer()
                try single.encodeNil()
            case .integer(let value):
                var single = encoder.singleValueContainer()
                try single.encode(value)
            case .text(let value):
                var single = encoder.singleValueContainer()
                try single.encode(value)
            case .real(let value):
                var object = encoder.container(keyedBy: Keys.self)
                try object.encode(value, forKey: .real)
            case .blob(let bytes):
                var object = encoder.container(keyedBy: Keys.self)
                try object.encode(Data(bytes).base64EncodedString(), forKey: .base64)
            }
        }
    }

    /// The table named `name`, if the document has it.
    public func table(_ name: String) -> Table? { tables.first { $0.name == name } }
}
