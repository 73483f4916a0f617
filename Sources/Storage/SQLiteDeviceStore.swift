// Devices, each with its apps, stored as one JSON document per device.
import CompactJSON
import Emulation
import Foundation
import Stores

/// ``DeviceStore`` on a ``Database``: table `devices`, one row per device whose `document` is the JSON of
/// `Emulation.Device` (apps included), with sorted keys and dates as RFC 3339 text with milliseconds, and
/// `clock_mode` a copy of the document's clock mode. Events go to the `events` table in the transaction that
/// writes the device (see ``SQLiteEventStore`` for reading them). Inserts and updates are grouped: those that
/// arrive together share a transaction (``Database/writeTogether(_:)``), each answered once it has committed.
public struct SQLiteDeviceStore: DeviceStore {
    public let database: Database

    public init(database: Database) {
        self.database = database
    }

    public func insert(_ device: Device) throws {
        _ = try insert(device, appending: [], recordedAt: Date())
    }

    public func insert(_ device: Device, appending events: [EmulationEvent], recordedAt: Date) throws -> [RecordedEvent] {
        let document = try Self.encode(device)
        let data = try EventRows.encodeData(events)
        return try StoreFailure.mapping {
            try database.writeTogether { db in
                try db.execute(
                    "INSERT INTO devices (id, tenant_id, created_at, clock_mode, document) VALUES (?, ?, ?, ?, ?)",
                    [device.id, device.tenantId, StorageDate.text(device.createdAt), device.clock.mode.rawValue, document])
                return try EventRows.append(events, data: data, of: device, recordedAt: recordedAt, db)
            }
        }
    }

    public func device(id: String, tenantId: String) throws -> Device? {
        let document = try StoreFailure.mapping {
            try database.read { db in
                try db.scalar("SELECT document FROM devices WHERE id = ? AND tenant_id = ?", [id, tenantId], as: [UInt8].self)
            }
        }
        return try document.map(Self.decode)
    }

    public func devices(tenantId: String, after cursor: String?, limit: Int) throws -> Page<Device> {
        let after = try cursor.map { try PageCursor.decode($0, list: "devices").seq } ?? 0
        let limit = PageCursor.pageSize(limit)
        let rows = try StoreFailure.mapping {
            try database.read { db in
                try db.query(
                    "SELECT seq, document FROM devices WHERE tenant_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                    [tenantId, after, limit + 1]
                ) { row in (seq: try row.get(0, as: Int64.self), document: try row.get(1, as: [UInt8].self)) }
            }
        }
        // Decoded outside the read, so the reader goes back to the pool sooner.
        return PageCursor.page(try rows.map { (seq: $0.seq, item: try Self.decode($0.document)) }, limit: limit, list: "devices")
    }

    public func deviceCount(tenantId: String) throws -> Int {
        try StoreFailure.mapping {
            try database.read { db in
                try db.scalar("SELECT COUNT(*) FROM devices WHERE tenant_id = ?", [tenantId], as: Int64.self)
            }
        }.map(Int.init) ?? 0
    }

    public func update(_ device: Device) throws -> Bool {
        try update(device, appending: [], recordedAt: Date()) != nil
    }

    public func update(_ device: Device, appending events: [EmulationEvent], recordedAt: Date) throws -> [RecordedEvent]? {
        let document = try Self.encode(device)
        let data = try EventRows.encodeData(events)
        return try StoreFailure.mapping {
            try database.writeTogether { db -> [RecordedEvent]? in
                try db.execute(
                    "UPDATE devices SET document = ?, clock_mode = ? WHERE id = ? AND tenant_id = ?",
                    [document, device.clock.mode.rawValue, device.id, device.tenantId])
                guard db.changes > 0 else { return nil }  // gone: nothing written, so nothing to roll back
                return try EventRows.append(events, data: data, of: device, recordedAt: recordedAt, db)
            }
        }
    }

    public func realtimeDevices() throws -> [Device] {
        // `clock_mode` mirrors the document's clock (migration 003), with a partial index on the realtime rows.
        let documents = try StoreFailure.mapping {
            try database.read { db in
                try db.query("SELECT document FROM devices WHERE clock_mode = 'realtime' ORDER BY seq") {
                    try $0.get(0, as: [UInt8].self)
                }
            }
        }
        return try documents.map(Self.decode)
    }

    public func delete(id: String, tenantId: String) throws -> Bool {
        try StoreFailure.mapping {
            try database.write { db in
                try db.execute("DELETE FROM devices WHERE id = ? AND tenant_id = ?", [id, tenantId])
                return db.changes > 0
            }
        }
    }

    // MARK: Documents

    /// The stored form of a device: JSON with sorted keys (the same device, the same bytes), written by
    /// ``DeviceDocument``.
    static func encode(_ device: Device) throws -> [UInt8] {
        try documentEncoder.encode(DeviceDocument(device: device))
    }

    /// Byte for byte what Foundation's encoder writes with `.sortedKeys` and dates as `StorageDate` text, as
    /// earlier builds stored devices.
    static let documentEncoder = CompactJSONEncoder(escapesSlashes: true, dateText: { StorageDate.text($0) })

    static func decode(_ document: [UInt8]) throws -> Device {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = StorageDate.date(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 date: \(text)")
            }
            return date
        }
        return try decoder.decode(Device.self, from: Data(document))
    }
}
