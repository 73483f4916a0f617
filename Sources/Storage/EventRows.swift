// Rows of the `events` table: appending events inside a write, and reading them back.
import CSQLite
import Emulation
import Foundation
import Stores

/// How an `EmulationEvent` becomes a row of `events`, and a row a `RecordedEvent`. Shared by the device store
/// (which appends in the transaction that changes the device) and the event store (which reads).
enum EventRows {
    /// The columns a read selects, in the order ``recorded(_:)`` expects.
    static let columns = "id, tenant_id, device_id, bundle_id, type, at, recorded_at, data, original_id"

    /// The texts of a batch of events' rows, as UTF-8 in one buffer: each event's `data` text, then its `type`, then
    /// its `bundle_id` if it has one. They are bound where they are (no copy by SQLite, no `String` per field).
    struct EncodedData {
        var bytes: [UInt8] = []
        /// Where each event's `data` text is in ``bytes``.
        var data: [Range<Int>] = []
        /// Where each event's type is in ``bytes``.
        var types: [Range<Int>] = []
        /// Where each event's bundle id is in ``bytes``; nil for an event of no app.
        var bundleIds: [Range<Int>?] = []

        var count: Int { data.count }
    }

    /// The row texts of `events`, computed before the transaction so that it stays short, and so that data that
    /// cannot be written (a non-finite number) fails before anything is written. Written as bytes into one buffer:
    /// no `String` per field or per event.
    static func encodeData(_ events: [EmulationEvent]) throws -> EncodedData {
        var encoded = EncodedData()
        encoded.bytes.reserveCapacity(events.count * 160)
        encoded.data.reserveCapacity(events.count)
        encoded.types.reserveCapacity(events.count)
        encoded.bundleIds.reserveCapacity(events.count)
        for event in events {
            var start = encoded.bytes.count
            try EventJSON.write(event.data, to: &encoded.bytes)
            encoded.data.append(start..<encoded.bytes.count)
            start = encoded.bytes.count
            encoded.bytes.append(contentsOf: event.type.rawValue.utf8)
            encoded.types.append(start..<encoded.bytes.count)
            if let bundleId = event.bundleId {
                start = encoded.bytes.count
                encoded.bytes.append(contentsOf: bundleId.utf8)
                encoded.bundleIds.append(start..<encoded.bytes.count)
            } else {
                encoded.bundleIds.append(nil)
            }
        }
        return encoded
    }

    /// How many rows one insert statement writes: a batch's rows go in statements of 64, then of 8, then one by
    /// one. Each statement's execution has a cost of its own besides its rows' (opening and closing it, its statement
    /// journal, the `AUTOINCREMENT` counter read and written back once per statement, the foreign key check's
    /// bookkeeping): one statement for 64 rows pays that once, not 64 times.
    static let rowsPerStatement = [64, 8, 1]

    /// The insert of `rows` event rows. `tenant_id`, `device_id` and `recorded_at` are the same for a batch: they are
    /// parameters 1–3, bound once; row `n` (from 0) takes parameters `4 + 4n` to `7 + 4n` (`bundle_id`, `type`,
    /// `at`, `data`).
    static func insertSQL(rows: Int) -> String {
        let values = (0..<rows).map { row in
            let first = 4 + 4 * row
            return "(?1, ?2, ?\(first), ?\(first + 1), ?\(first + 2), ?3, ?\(first + 3))"
        }
        return "INSERT INTO events (tenant_id, device_id, bundle_id, type, at, recorded_at, data) VALUES "
            + values.joined(separator: ", ")
    }

    /// The SQL of ``insertSQL(rows:)`` for each of ``rowsPerStatement``, largest first, made once.
    private static let insertStatements: [(rows: Int, sql: String)] = rowsPerStatement.map { ($0, insertSQL(rows: $0)) }

    /// Appends `events` of `device` inside the caller's write; answers them with their ids, in order.
    ///
    /// The ids come from `AUTOINCREMENT`: greater than every id ever used in the table, and, since the database
    /// has one writer, increasing in commit order service-wide. The rows of one statement are inserted in the order
    /// of its `VALUES`, each with the id after the previous one's, so the last insert's id gives them all.
    static func append(
        _ events: [EmulationEvent], data: EncodedData, of device: Device, recordedAt: Date, _ db: SQLiteConnection
    ) throws -> [RecordedEvent] {
        precondition(events.count == data.count, "one data text per event")
        guard !events.isEmpty else { return [] }
        let recordedText = StorageDate.text(recordedAt)
        // As it reads back: to the millisecond.
        let recordedAt = StorageDate.date(milliseconds: StorageDate.milliseconds(recordedAt))
        var recorded: [RecordedEvent] = []
        recorded.reserveCapacity(events.count)
        try data.bytes.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < events.count {
                // The largest statement that the events left fill (the last takes one row: there always is one).
                let (rows, sql) = Self.insertStatements.first { $0.rows <= events.count - start }!
                let insert = try db.cachedStatement(sql)
                insert.reset()
                // The texts are bound where they are, in `bytes`: no binding outlives this iteration.
                defer {
                    insert.reset()
                    insert.clearBindings()
                }
                try insert.bind(.text(device.tenantId), at: 1)
                try insert.bind(.text(device.id), at: 2)
                try insert.bind(.text(recordedText), at: 3)
                for row in 0..<rows {
                    let first = 4 + 4 * row
                    let index = start + row
                    if let bundleId = data.bundleIds[index] {
                        try insert.bindStaticText(UnsafeBufferPointer(rebasing: bytes[bundleId]), at: first)
                    } else {
                        try insert.bind(.null, at: first)
                    }
                    try insert.bindStaticText(UnsafeBufferPointer(rebasing: bytes[data.types[index]]), at: first + 1)
                    try insert.bind(.integer(events[index].at.milliseconds), at: first + 2)
                    try insert.bindStaticText(UnsafeBufferPointer(rebasing: bytes[data.data[index]]), at: first + 3)
                }
                while try insert.step() != nil {}
                guard db.changes == rows else {
                    throw SQLiteError(
                        extendedResultCode: SQLITE_INTERNAL,
                        message: "an insert of \(rows) events changed \(db.changes) rows", sql: insert.sql)
                }
                let last = db.lastInsertRowID
                for row in 0..<rows {
                    recorded.append(
                        RecordedEvent(
                            id: last - Int64(rows - 1 - row), tenantId: device.tenantId, deviceId: device.id,
                            event: events[start + row], recordedAt: recordedAt))
                }
                start += rows
            }
        }
        // The count a per-device retention limit reads, in the same transaction; nothing without one (`EventCounts`).
        if try EventCounts.isCounting(db) {
            try EventCounts.add(Int64(events.count), tenantId: device.tenantId, deviceId: device.id, db)
        }
        return recorded
    }

    /// A row's columns as read, before the `data` text is parsed (done outside the read, see ``decode(_:)``).
    struct Raw {
        var id: Int64
        var tenantId: String
        var deviceId: String
        var bundleId: String?
        var type: String
        var at: Int64
        var recordedAt: Date
        var data: String
        var originalId: Int64?
    }

    /// The columns of a row selected with ``columns``.
    static func raw(_ row: SQLiteRow) throws -> Raw {
        Raw(
            id: try row[0], tenantId: try row[1], deviceId: try row[2], bundleId: try row[3], type: try row[4],
            at: try row[5], recordedAt: try StorageDate.read(row, 6), data: try row[7],
            originalId: try row[8])
    }

    static func decode(_ raw: Raw) throws -> RecordedEvent {
        let event = EmulationEvent(
            type: EventType(raw.type), bundleId: raw.bundleId, at: VirtualInstant(milliseconds: raw.at),
            data: try EventJSON.decode(raw.data))
        return RecordedEvent(
            id: raw.id, tenantId: raw.tenantId, deviceId: raw.deviceId, event: event, recordedAt: raw.recordedAt,
            originalId: raw.originalId)
    }
}
