import Emulation
import Foundation
import Testing
@testable import Storage
import Stores

@Suite struct SQLiteDeviceStoreTests {
    /// Two tenants, and a device store.
    @discardableResult
    private func withStore<T>(_ body: (SQLiteDeviceStore) throws -> T) throws -> T {
        try withDatabase { database throws in
            let tenants = SQLiteTenantStore(database: database)
            for n in 1...2 {
                let (tenant, key) = makeTenant(n)
                try tenants.createTenant(tenant, firstKey: key)
            }
            return try body(SQLiteDeviceStore(database: database))
        }
    }

    /// A device far from the defaults: apps, conditions, a realtime clock, an old iOS, a large seed.
    private func richDevice() -> Device {
        let manifest = AppManifest(
            backgroundModes: [.fetch, .processing, BackgroundMode("x-custom")],
            permittedIdentifiers: ["com.example.refresh", "com.example.cleanup"], exitsOnSuspend: false)
        let apps = [
            App(
                bundleId: "com.example.mail", displayName: "Mail ✉️", manifest: manifest,
                settings: AppSettings(backgroundAppRefresh: false), state: .suspended,
                installedAt: VirtualInstant(milliseconds: 1_767_225_601_001)),
            App(
                bundleId: "com.example.game", manifest: AppManifest(exitsOnSuspend: true), launchHandlers: [],
                state: .background, installedAt: VirtualInstant(milliseconds: 1_767_225_602_002)),
        ]
        return Device(
            id: "dev_rich", tenantId: "ten_1", name: "Rich \"device\"", model: "iPhone15,2",
            osVersion: OSVersion(major: 12, minor: 4, patch: 1), multitaskingSupported: true,
            clock: DeviceClock(
                mode: .realtime, scale: 0.1, start: VirtualInstant(milliseconds: 1_800_000_000_123),
                wallMilliseconds: 1_767_225_600_999),
            conditions: DeviceConditions(
                batteryLevel: 7, charging: true, lowPowerMode: true, network: .cellular, backgroundAppRefresh: false,
                locked: true, userActive: false),
            seed: UInt64.max - 1, createdAt: date(1_767_225_600_789), apps: apps)
    }

    @Test func documentRoundTripsExactly() throws {
        try withStore { store throws in
            let device = richDevice()
            try store.insert(device)
            #expect(try store.device(id: device.id, tenantId: device.tenantId) == device)
            // Sorted keys: the same device always makes the same bytes.
            let document = try SQLiteDeviceStore.encode(device)
            #expect(document == (try SQLiteDeviceStore.encode(try SQLiteDeviceStore.decode(document))))
            let text = String(decoding: document, as: UTF8.self)
            #expect(text.hasPrefix(#"{"apps":"#))
            #expect(text.contains(#""createdAt":"2026-01-01T00:00:00.789Z""#))
        }
    }

    /// The stored document is what Foundation's JSONEncoder wrote with the same settings (earlier builds' documents
    /// and this build's compare equal), for a device with runtime state: launched, backgrounded, and suspended.
    @Test func documentIsByteForByteWhatFoundationsEncoderWrites() throws {
        var engine = DeviceEngine(device: richDevice())
        try engine.launch("com.example.mail")
        try engine.background("com.example.mail")
        _ = try engine.advance(to: engine.now + .seconds(3_600))
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys]
        foundation.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(StorageDate.text(date))
        }
        let expected = String(decoding: try foundation.encode(engine.device), as: UTF8.self)
        #expect(String(decoding: try SQLiteDeviceStore.encode(engine.device), as: UTF8.self) == expected)
        #expect(expected.count > 1_000)
    }

    @Test func insertedDeviceIsFoundOnlyByItsTenant() throws {
        try withStore { store throws in
            let device = makeDevice("dev_1", tenantId: "ten_1")
            try store.insert(device)
            #expect(try store.device(id: "dev_1", tenantId: "ten_1") == device)
            #expect(try store.device(id: "dev_1", tenantId: "ten_2") == nil)
            #expect(try store.device(id: "nope", tenantId: "ten_1") == nil)
        }
    }

    @Test func duplicateDeviceIdIsRefused() throws {
        try withStore { store throws in
            try store.insert(makeDevice("dev_1", tenantId: "ten_1"))
            #expect(throws: StoreError.duplicate("device id")) { try store.insert(makeDevice("dev_1", tenantId: "ten_2")) }
            #expect(try store.device(id: "dev_1", tenantId: "ten_2") == nil)
        }
    }

    @Test func updateReplacesTheDocumentOfAnExistingDevice() throws {
        try withStore { store throws in
            var device = makeDevice("dev_1", tenantId: "ten_1")
            try store.insert(device)
            device.name = "Renamed"
            device.conditions.batteryLevel = 3
            device.apps.append(richDevice().apps[0])
            #expect(try store.update(device))
            #expect(try store.device(id: "dev_1", tenantId: "ten_1") == device)

            #expect(try !store.update(makeDevice("nope", tenantId: "ten_1")))
            var foreign = device
            foreign.tenantId = "ten_2"
            #expect(try !store.update(foreign))
            #expect(try store.device(id: "dev_1", tenantId: "ten_1") == device)
        }
    }

    @Test func deleteRemovesOnlyTheTenantsDevice() throws {
        try withStore { store throws in
            try store.insert(makeDevice("dev_1", tenantId: "ten_1"))
            #expect(try !store.delete(id: "dev_1", tenantId: "ten_2"))
            #expect(try store.delete(id: "dev_1", tenantId: "ten_1"))
            #expect(try !store.delete(id: "dev_1", tenantId: "ten_1"))
            #expect(try store.device(id: "dev_1", tenantId: "ten_1") == nil)
        }
    }

    @Test func devicesArePagedPerTenant() throws {
        try withStore { store throws in
            for n in 1...5 {
                try store.insert(makeDevice("a\(n)", tenantId: "ten_1"))
                try store.insert(makeDevice("b\(n)", tenantId: "ten_2"))
            }
            var ids: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try store.devices(tenantId: "ten_1", after: cursor, limit: 2)
                ids += page.items.map(\.id)
                cursor = page.nextCursor
                pages += 1
            } while cursor != nil
            #expect(ids == ["a1", "a2", "a3", "a4", "a5"])
            #expect(pages == 3)
            #expect(try store.devices(tenantId: "ten_2", after: nil, limit: 50).items.map(\.id) == ["b1", "b2", "b3", "b4", "b5"])
            #expect(try store.devices(tenantId: "ten_3", after: nil, limit: 50).items.isEmpty)
        }
    }

    @Test func invalidCursorIsRefused() throws {
        try withStore { store throws in
            for n in 1...3 { try store.insert(makeDevice("a\(n)", tenantId: "ten_1")) }
            #expect(throws: StoreError.invalidCursor) { try store.devices(tenantId: "ten_1", after: "xyz", limit: 2) }
            // A cursor of the tenant list is not one of the device list.
            let tenantCursor = PageCursor(list: "tenants", seq: 1).token
            #expect(throws: StoreError.invalidCursor) { try store.devices(tenantId: "ten_1", after: tenantCursor, limit: 2) }
        }
    }
}

@Suite struct PageCursorTests {
    @Test func tokenRoundTrips() throws {
        for seq: Int64 in [0, 1, 62, 63, 64, 1_000_000, Int64.max] {
            let token = PageCursor(list: "devices", seq: seq).token
            #expect(!token.contains("=") && !token.contains("+") && !token.contains("/"))
            #expect(try PageCursor.decode(token, list: "devices") == PageCursor(list: "devices", seq: seq))
        }
    }

    @Test func pageSizeIsClamped() {
        #expect(PageCursor.pageSize(0) == 1)
        #expect(PageCursor.pageSize(-5) == 1)
        #expect(PageCursor.pageSize(50) == 50)
        #expect(PageCursor.pageSize(Int.max) == 10_000)
    }
}

@Suite struct StorageDateTests {
    @Test func datesOfWholeMillisecondsRoundTrip() {
        for ms: Int64 in [0, 1, 999, 1_767_225_600_123, 4_102_444_799_999] {
            let original = date(ms)
            #expect(StorageDate.date(StorageDate.text(original)) == original)
        }
        #expect(StorageDate.text(date(1_767_225_600_123)) == "2026-01-01T00:00:00.123Z")
        // Finer dates are rounded to the nearest millisecond.
        #expect(StorageDate.text(Date(timeIntervalSince1970: 1_767_225_600.1237)) == "2026-01-01T00:00:00.124Z")
    }
}
