// Rows of the `events` table: appending events inside a write, and reading them back.
import Emulation
import Foundation

/// How an `EmulationEvent` becomes a row of `events`, and a row a `RecordedEvent`. Shared by the device store
/// (which appends in the transaction that changes the device) and the event store (which reads).
enum EventRows {
    /// The columns a read selects, in the order ``recorded(_:)`` expects.
    static let columns = "id, tenant_id, device_id, bundle_id, type, at, recorded_at, data"

    /// The `data` texts of `events`, computed before the transaction so that it stays short, and so that data
    /// that cannot be written (a non-finite number) fails before anything is written.
    static func encodeData(_ events: [EmulationEvent]) throws -> [String] {
        try events.map { try EventJSON.encode($0.data) }
    }

    /// Appends `events` of `device` inside the caller's write; answers them with their ids, in order.
    ///
    /// The ids come from `AUTOINCREMENT`: greater than every id ever used in the table, and, since the database
    /// has one writer, increasing in commit order service-wide.
    static func append(
        _ events: [EmulationEvent], data: [String], of device: Device, recordedAt: Date, _ db: SQLiteConnection
    ) throws -> [RecordedEvent] {
        precondition(events.count == data.count, "one data text per event")
        let recordedText = StorageDate.text(recordedAt)
        // As it reads back: to the millisecond.
        let recordedAt = StorageDate.date(milliseconds: StorageDate.milliseconds(recordedAt))
        var recorded: [RecordedEvent] = []
        recorded.reserveCapacity(events.count)
        for (event, data) in zip(events, data) {
            try db.execute(
                """
                INSERT INTO events (tenant_id, device_id, bundle_id, type, at, recorded_at, data)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [device.tenantId, device.id, event.bundleId, event.type.rawValue, event.at.milliseconds, recordedText, data])
            recorded.append(
                RecordedEvent(
                    id: db.lastInsertRowID, tenantId: device.tenantId, deviceId: device.id, event: event,
                    recordedAt: recordedAt))
        }
        if !events.isEmpty {
            // The count the retention reads (see migration `006_event_retention`), in the same transaction.
            try db.execute(
                """
                INSERT INTO event_retention (tenant_id, device_id, held) VALUES (?, ?, ?)
                ON CONFLICT (tenant_id, device_id) DO UPDATE SET held = held + excluded.held
                """,
                [device.tenantId, device.id, Int64(events.count)])
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
