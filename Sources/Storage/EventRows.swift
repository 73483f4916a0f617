// Rows of the `events` table: appending events inside a write, and reading them back.
import Emulation
import Foundation

/// How an `EmulationEvent` becomes a row of `events`, and a row a `RecordedEvent`. Shared by the device store
/// (which appends in the transaction that changes the device) and the event store (which reads).
enum EventRows {
    /// The columns a read selects, in the order ``recorded(_:)`` expects.
    static let columns = "id, tenant_id, device_id, bundle_id, type, at, recorded_at, data"

    /// The `data` texts of a batch of events, as UTF-8 in one buffer: event `n`'s text is `bytes[ends[n - 1]..<ends[n]]`.
    struct EncodedData {
        var bytes: [UInt8] = []
        var ends: [Int] = []

        var count: Int { ends.count }

        /// The byte range of event `index`'s text in ``bytes``.
        func range(_ index: Int) -> Range<Int> { (index == 0 ? 0 : ends[index - 1])..<ends[index] }
    }

    /// The `data` texts of `events`, computed before the transaction so that it stays short, and so that data
    /// that cannot be written (a non-finite number) fails before anything is written. Written as bytes into one
    /// buffer: no `String` per field or per event.
    static func encodeData(_ events: [EmulationEvent]) throws -> EncodedData {
        var data = EncodedData()
        data.bytes.reserveCapacity(events.count * 128)
        data.ends.reserveCapacity(events.count)
        for event in events {
            try EventJSON.write(event.data, to: &data.bytes)
            data.ends.append(data.bytes.count)
        }
        return data
    }

    /// The insert of one event row; `tenant_id`, `device_id` and `recorded_at` (1, 2, 6) are the same for a batch.
    private static let insertSQL = """
        INSERT INTO events (tenant_id, device_id, bundle_id, type, at, recorded_at, data)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    /// Appends `events` of `device` inside the caller's write; answers them with their ids, in order.
    ///
    /// The ids come from `AUTOINCREMENT`: greater than every id ever used in the table, and, since the database
    /// has one writer, increasing in commit order service-wide.
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
        // One statement for the batch, bound column by column: the columns shared by every row once, the others
        // per row (a reset keeps the bindings), the data text straight from the encoded bytes.
        let insert = try db.cachedStatement(insertSQL)
        insert.reset()
        defer { insert.reset() }
        try insert.bind(.text(device.tenantId), at: 1)
        try insert.bind(.text(device.id), at: 2)
        try insert.bind(.text(recordedText), at: 6)
        try data.bytes.withUnsafeBufferPointer { bytes in
            for (index, event) in events.enumerated() {
                insert.reset()
                try insert.bind(event.bundleId.map(SQLiteValue.text) ?? .null, at: 3)
                try insert.bind(.text(event.type.rawValue), at: 4)
                try insert.bind(.integer(event.at.milliseconds), at: 5)
                try insert.bindText(UnsafeBufferPointer(rebasing: bytes[data.range(index)]), at: 7)
                while try insert.step() != nil {}
                recorded.append(
                    RecordedEvent(
                        id: db.lastInsertRowID, tenantId: device.tenantId, deviceId: device.id, event: event,
                        recordedAt: recordedAt))
            }
        }
        // The count the retention reads (see migration `006_event_retention`), in the same transaction.
        try db.execute(
            """
            INSERT INTO event_retention (tenant_id, device_id, held) VALUES (?, ?, ?)
            ON CONFLICT (tenant_id, device_id) DO UPDATE SET held = held + excluded.held
            """,
            [device.tenantId, device.id, Int64(events.count)])
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
    }

    /// The columns of a row selected with ``columns``.
    static func raw(_ row: SQLiteRow) throws -> Raw {
        Raw(
            id: try row[0], tenantId: try row[1], deviceId: try row[2], bundleId: try row[3], type: try row[4],
            at: try row[5], recordedAt: try StorageDate.read(row, 6), data: try row[7])
    }

    static func decode(_ raw: Raw) throws -> RecordedEvent {
        let event = EmulationEvent(
            type: EventType(raw.type), bundleId: raw.bundleId, at: VirtualInstant(milliseconds: raw.at),
            data: try EventJSON.decode(raw.data))
        return RecordedEvent(
            id: raw.id, tenantId: raw.tenantId, deviceId: raw.deviceId, event: event, recordedAt: raw.recordedAt)
    }
}
