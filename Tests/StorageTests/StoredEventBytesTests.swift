import Emulation
import Foundation
import Testing
@testable import Storage

/// The stored `data` of events is pinned byte for byte: the clock's advance writes it without `String` building,
/// and the log a client reads back must not change by a byte for it. The expected texts are those the service
/// stored before that change, for the same requests (the `advance` benchmark's app, one day).
@Suite struct StoredEventBytesTests {
    static let bundleId = "com.example.a0"

    /// The benchmark's scripted app (fetch and app refresh, resubmitting), launched, a request submitted, sent to
    /// the background, and a day of its device's clock: 136 events.
    static func benchmarkDay() throws -> DeviceEngine {
        let identifier = bundleId + ".refresh"
        var engine = DeviceEngine(
            device: Device(id: "dev_pin", tenantId: "ten_1", name: "pin", seed: 1, createdAt: date(1_767_225_600_000)))
        try engine.install(
            scriptedApp(bundleId, identifier: identifier, installedAt: engine.now))
        try engine.launch(bundleId)
        try engine.setFetchInterval(bundleId, .minimum)
        try engine.submit(bundleId, TaskRequest(kind: .appRefresh, identifier: identifier, submittedAt: engine.now))
        try engine.background(bundleId)
        try engine.advance(to: engine.now + .seconds(86_400))
        return engine
    }

    /// Stores the day's events with their device and reads back each row's `data` as SQLite holds it.
    static func storedRows(_ device: Device, _ events: [EmulationEvent]) throws -> [(type: String, bundleId: String?, at: Int64, data: [UInt8], kind: String)] {
        try withDatabase { database throws in
            let (tenant, key) = makeTenant(1)
            try SQLiteTenantStore(database: database).createTenant(tenant, firstKey: key)
            _ = try SQLiteDeviceStore(database: database).insert(device, appending: events, recordedAt: date(1))
            return try database.read { db in
                try db.query("SELECT type, bundle_id, at, CAST(data AS BLOB), typeof(data) FROM events ORDER BY id") { row in
                    (type: try row.get(0, as: String.self), bundleId: try row.get(1, as: String?.self),
                     at: try row.get(2, as: Int64.self), data: try row.get(3, as: [UInt8].self), kind: try row.get(4, as: String.self))
                }
            }
        }
    }

    @Test func storedEventDataIsByteForByteAsBefore() throws {
        let engine = try Self.benchmarkDay()
        let rows = try Self.storedRows(engine.device, engine.events)
        #expect(rows.count == 136)
        #expect(rows.allSatisfy { $0.kind == "text" })
        let texts = rows.map { String(decoding: $0.data, as: UTF8.self) }
        func first(_ type: String) -> String? { zip(rows, texts).first { $0.0.type == type }?.1 }
        #expect(first("run.started") == #"{"deadline":"2026-01-01T00:16:06.395Z","identifier":"com.example.a0.refresh","kind":"appRefresh","launchedApp":false,"reason":"opportunity","runId":"run_1"}"#)
        #expect(first("taskRequest.submitted") == #"{"earliestBeginDate":null,"identifier":"com.example.a0.refresh","kind":"appRefresh","replaced":false,"requiresExternalPower":false,"requiresNetworkConnectivity":false}"#)
        #expect(first("run.completed") == #"{"afterExpiration":false,"duration":5.0,"kind":"appRefresh","reason":"reported","result":"success","runId":"run_1"}"#)
        #expect(first("app.delegate") == #"{"callback":"didFinishLaunching","launchedBy":"user","method":"application(_:didFinishLaunchingWithOptions:)"}"#)
        #expect(first("clock.advanced") == #"{"from":"2026-01-01T00:00:00.000Z","to":"2026-01-02T00:00:00.000Z"}"#)
        // The whole day, every row's type, app, instant and data, in order: FNV-1a 64 of the lines
        // `type TAB bundleId TAB at TAB data LF`, as the service stored them before.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for row in rows {
            for byte in Array("\(row.type)\t\(row.bundleId ?? "")\t\(row.at)\t".utf8) + row.data + [0x0A] {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        #expect(hash == 0x6e92_c17c_6b0c_8299)
    }

    /// Texts a day of one app does not contain: escapes, non-ASCII keys and strings, numbers at their limits.
    @Test func awkwardDataIsStoredAsTheEncoderWritesIt() throws {
        let data: [String: EventValue] = [
            "é": "ü", "z": .int(Int64.min), "Z": .int(Int64.max), "a": ["\u{1F}\"\\\n\r\t/", 30.0, -0.0, 1e-7, .null, true],
            "": [:],
        ]
        let device = Device(id: "dev_pin", tenantId: "ten_1", name: "pin", createdAt: date(1_767_225_600_000))
        let rows = try Self.storedRows(device, [EmulationEvent(type: EventType("custom.awkward"), at: .defaultStart, data: data)])
        #expect(String(decoding: rows[0].data, as: UTF8.self)
            == #"{"":{},"Z":9223372036854775807,"a":["\u001f\"\\\n\r\t/",30.0,-0.0,1e-07,null,true],"z":-9223372036854775808,"é":"ü"}"#)
        #expect(rows[0].kind == "text")
    }
}
