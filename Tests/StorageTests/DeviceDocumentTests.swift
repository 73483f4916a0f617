import CompactJSON
import Foundation
import Testing
@testable import Emulation
@testable import Storage

/// A device's stored document is written by hand (`DeviceDocument`); `Device`'s `Encodable` conformance stays the
/// reference. Each test holds the two to the same bytes, so a field added to a device's parts, or a change of their
/// coding, that the hand-written document misses fails here.
@Suite struct DeviceDocumentTests {
    /// The bytes of the reference: the store's encoder through `Device`'s `Encodable`.
    static func reference(_ device: Device) throws -> [UInt8] {
        try SQLiteDeviceStore.documentEncoder.encode(device)
    }

    static func expectSameDocument(_ device: Device, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let written = try SQLiteDeviceStore.encode(device)
        let expected = try reference(device)
        #expect(
            String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
            sourceLocation: sourceLocation)
        #expect(try SQLiteDeviceStore.decode(written) == device, sourceLocation: sourceLocation)
    }

    @Test func aNewDeviceIsWrittenAsItsEncodableWritesIt() throws {
        try Self.expectSameDocument(makeDevice("dev_new", tenantId: "ten_1"))
        try Self.expectSameDocument(
            Device(id: "dev_fresh", tenantId: "ten_1", name: "fresh", seed: 42, createdAt: date(1_767_225_600_000)))
    }

    /// A day of a scripted app: installed, launched, a request submitted, backgrounded, runs and their timers; the
    /// document after every step.
    @Test func aDeviceThroughADayOfItsAppIsWrittenAsItsEncodableWritesIt() throws {
        let bundleId = "com.example.day"
        let identifier = bundleId + ".refresh"
        var engine = DeviceEngine(
            device: Device(id: "dev_day", tenantId: "ten_1", name: "day", seed: 7, createdAt: date(1_767_225_600_000)))
        try Self.expectSameDocument(engine.device)
        try engine.install(
            scriptedApp(bundleId, identifier: identifier, installedAt: engine.now))
        try Self.expectSameDocument(engine.device)
        try engine.launch(bundleId)
        try engine.setFetchInterval(bundleId, .minimum)
        try engine.submit(bundleId, TaskRequest(kind: .appRefresh, identifier: identifier, submittedAt: engine.now))
        try Self.expectSameDocument(engine.device)
        try engine.background(bundleId)
        try Self.expectSameDocument(engine.device)
        for _ in 0..<24 {
            try engine.advance(to: engine.now + .seconds(3_600))
            try Self.expectSameDocument(engine.device)
        }
        #expect(!engine.device.runtime.timers.isEmpty)
    }

    /// Every kind of timer, a location, overrides whose keys sort by their bytes, a scenario, realtime clock, and
    /// strings and numbers that need care.
    @Test func everyPartOfADeviceIsWrittenAsItsEncodableWritesIt() throws {
        var device = Device(
            id: "dev_all", tenantId: "ten_/\"1\"", name: "a/b \"c\" \\ \u{1}\t\n é 🚀", model: "iPad",
            osVersion: OSVersion(major: 26, minor: 1), multitaskingSupported: false,
            clock: DeviceClock(mode: .realtime, scale: 0.125, start: VirtualInstant(milliseconds: -1), wallMilliseconds: 1_795_655_914_249),
            conditions: DeviceConditions(
                batteryLevel: 7, charging: true, lowPowerMode: true, network: .none, backgroundAppRefresh: false,
                locked: true, userActive: false),
            seed: UInt64.max, createdAt: date(1_767_225_600_999))
        device.policyOverrides = ["é": 1e-7, "Z": 30, "a": 0.1, "ab": 1e21, "": -2.5]
        device.scenario = "nightly/sync"
        device.runtime.location = LocationFix(latitude: 52.52, longitude: -13.405, at: VirtualInstant(milliseconds: 5))
        device.runtime.nextRunNumber = 12
        device.runtime.nextTaskNumber = Int64.max
        device.runtime.nextTransferNumber = 3
        let kinds: [DeviceTimer.Kind] = [
            .lifecycleGraceEnd(bundleId: "b"), .allowanceWarning(bundleId: "b"), .allowanceEnd(bundleId: "b"),
            .runDeadline(bundleId: "b", runId: "run_1"), .runGraceEnd(bundleId: "b", runId: "run_2"),
            .scriptedRunCompletion(bundleId: "b", runId: "run_3"), .scriptedTaskEnd(bundleId: "b", taskId: "task_1"),
            .opportunity, .predictedUsage(bundleId: "b"), .localNotification(bundleId: "b", identifier: "n/1"),
            .transfer(bundleId: "b", transferId: "tr_1"), .voipKeepAlive(bundleId: "b"),
            .pushExpiration(bundleId: "b", apnsId: "A-1"),
        ]
        device.runtime.timers = kinds.enumerated().map { index, kind in
            DeviceTimer(seq: Int64(index + 1), due: VirtualInstant(milliseconds: Int64(index) * 1_000), kind: kind)
        }
        device.runtime.nextTimerSeq = Int64(kinds.count + 1)
        device.apps = [Self.appWithEveryPart(), App(bundleId: "com.example.bare", manifest: AppManifest(), installedAt: VirtualInstant(milliseconds: 0))]
        try Self.expectSameDocument(device)
    }

    /// An app whose every optional part is set: a display name, open and ended background tasks and runs (with and
    /// without names, identifiers and results), each of its runtime's instants, pushes and notifications.
    static func appWithEveryPart() -> App {
        var app = App(
            bundleId: "com.example.every", displayName: "Every \"part\" / é", manifest: AppManifest(backgroundModes: [.fetch, .audio], permittedIdentifiers: ["a", "b"]),
            installedAt: VirtualInstant(milliseconds: 1_000),
            behavior: AppBehavior(runs: [.fetch: RunBehavior(completeAfter: .seconds(3), result: .noData)]))
        app.state = .background
        app.unresolvedBuildSettings = ["MISSING_ONE"]
        app.buildSettingNotes = ["#include \"Shared.xcconfig\" was not read"]
        var open = BackgroundTask(id: "task_1", name: nil, beganAt: VirtualInstant(milliseconds: 2_000))
        open.state = .expiring
        var ended = BackgroundTask(id: "task_2", name: "upload/1", beganAt: VirtualInstant(milliseconds: 3_000), endsOnExpiration: true)
        ended.state = .ended
        ended.endedAt = VirtualInstant(milliseconds: 4_000)
        app.runtime.backgroundTasks = [open, ended]
        let running = Run(
            id: "run_1", kind: .processing, reason: "opportunity", identifier: "b", startedAt: VirtualInstant(milliseconds: 5_000),
            deadline: VirtualInstant(milliseconds: 6_000), launchedApp: true, requiresExternalPower: true)
        var finished = Run(
            id: "run_2", kind: .remoteNotification, reason: "push", identifier: nil, startedAt: VirtualInstant(milliseconds: 7_000),
            deadline: VirtualInstant(milliseconds: 37_000), launchedApp: false)
        finished.state = .expired
        finished.result = .failed
        finished.endedAt = VirtualInstant(milliseconds: 37_000)
        app.runtime.runs = [running, finished]
        app.runtime.enteredBackgroundAt = VirtualInstant(milliseconds: 8_000)
        app.runtime.lifecycleGraceEndsAt = VirtualInstant(milliseconds: 13_000)
        app.runtime.allowanceEndsAt = VirtualInstant(milliseconds: 38_000)
        app.runtime.lastFetchAt = VirtualInstant(milliseconds: 9_000)
        app.runtime.lastDiscretionaryLaunchAt = VirtualInstant(milliseconds: 10_000)
        app.runtime.launchHistory = [VirtualInstant(milliseconds: 11_000), VirtualInstant(milliseconds: 12_000)]
        app.runtime.forceQuit = true
        app.runtime.pushes = AppPushes()
        app.runtime.notifications = []
        return app
    }

    /// A non-finite number has no JSON: the document refuses it as the encoder does, instead of writing `nan`.
    @Test func aNonFiniteOverrideIsRefusedAsTheEncoderRefusesIt() throws {
        var device = makeDevice("dev_nan", tenantId: "ten_1")
        device.policyOverrides = ["x": .nan]
        #expect(throws: EncodingError.self) { try Self.reference(device) }
        #expect(throws: EncodingError.self) { try SQLiteDeviceStore.encode(device) }
    }
}
