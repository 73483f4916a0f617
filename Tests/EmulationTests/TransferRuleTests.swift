import Foundation
import Testing
@testable import Emulation

/// R32–R34: background URL sessions.
struct TransferRuleTests {
    static let session = "com.example.weather.bg"
    let app = EngineFixture.weather

    /// A launched app with a background session, its download of `bytes` enqueued in the foreground.
    func engineWithDownload(
        bytes: Int64 = 10_000_000, discretionary: Bool = false, sendsLaunchEvents: Bool = true,
        conditions: DeviceConditions = DeviceConditions()
    ) throws -> (DeviceEngine, Transfer) {
        var engine = EngineFixture.engine(conditions: conditions)
        try engine.launch(app)
        try engine.makeURLSession(app, identifier: Self.session, discretionary: discretionary, sendsLaunchEvents: sendsLaunchEvents)
        let transfer = try engine.enqueueTransfer(app, session: Self.session, kind: .download, bytes: bytes)
        return (engine, transfer)
    }

    func transfer(_ engine: DeviceEngine, _ id: String) -> Transfer { engine.app().runtime.transfers.first { $0.id == id }! }

    @Test func R32_transfersContinueWhileTerminatedAndRelaunchWithURLSessionEvents() throws {
        var (engine, download) = try engineWithDownload(bytes: 100_000_000)
        #expect(download.id == "xfer_1" && download.state == .running)
        try engine.background(app)
        try engine.advance(seconds: 10)
        #expect(engine.app().state == .suspended)
        try engine.terminate(app)  // memory pressure: the system ends the app, not the transfer
        engine.clearEvents()
        // 100 MB at 5 MB/s: 25 % at 5 s, 50 % at 10 s, 75 % at 15 s, done at 20 s after the enqueue.
        try engine.advance(seconds: 20)
        #expect(engine.events(.transferProgress).map { engine.seconds(of: $0) } == [15])
        let completed = try #require(engine.events(.transferCompleted).first)
        #expect(engine.seconds(of: completed) == 20)
        #expect(transfer(engine, download.id).state == .completed)
        #expect(transfer(engine, download.id).bytesTransferred == 100_000_000)
        // The app was launched into the background with a urlSessionEvents run.
        let run = try #require(engine.app().runtime.runs.last)
        #expect(run.kind == .urlSessionEvents && run.identifier == Self.session && run.launchedApp && run.isOpen)
        #expect(engine.app().state == .background)
        #expect(engine.trace().contains("delegate:didFinishLaunching"))
        // The app calls the stored completion handler: the run ends and the app suspends.
        try engine.finishURLSessionEvents(app, session: Self.session)
        #expect(engine.app().runtime.runs.last?.state == .completed)
        #expect(engine.app().state == .suspended)
    }

    @Test func R32_progressIsReportedAtEachQuarterAtTheExactInstant() throws {
        var (engine, _) = try engineWithDownload(bytes: 10_000_000)
        try engine.advance(seconds: 3)
        let progress = engine.events(.transferProgress)
        #expect(progress.map { engine.seconds(of: $0) } == [0.5, 1, 1.5])
        #expect(progress.map { $0.data["fraction"] } == [.double(0.25), .double(0.5), .double(0.75)])
        #expect(engine.events(.transferCompleted).map { engine.seconds(of: $0) } == [2])
        // In the foreground, the session's delegate hears of the end directly: no run.
        #expect(!engine.app().runtime.runs.contains { $0.kind == .urlSessionEvents })
    }

    @Test func R32_aNetworkChangeReplansTheTransfer() throws {
        var (engine, download) = try engineWithDownload(bytes: 10_000_000)
        try engine.advance(seconds: 1)  // 5 MB moved on Wi-Fi
        var conditions = engine.device.conditions
        conditions.network = .none
        engine.setConditions(conditions)
        try engine.advance(seconds: 100)
        #expect(transfer(engine, download.id).state == .waiting)
        #expect(transfer(engine, download.id).bytesTransferred == 5_000_000)
        conditions.network = .cellular
        engine.setConditions(conditions)  // 5 MB left at 1 MB/s
        try engine.advance(seconds: 10)
        let completed = try #require(engine.events(.transferCompleted).first)
        #expect(engine.seconds(of: completed) == 106)
    }

    @Test func R32_withoutLaunchEventsTheAppIsNotLaunched() throws {
        var (engine, _) = try engineWithDownload(sendsLaunchEvents: false)
        try engine.background(app)
        try engine.advance(seconds: 60)
        #expect(engine.events(.transferCompleted).count == 1)
        #expect(!engine.app().runtime.runs.contains { $0.kind == .urlSessionEvents })
        #expect(engine.app().state == .suspended)
    }

    @Test func R33_forceQuitCancelsTransfersReportedAtNextLaunch() throws {
        var (engine, download) = try engineWithDownload(bytes: 100_000_000)
        try engine.advance(seconds: 1)
        try engine.forceQuit(app)
        let cancelled = transfer(engine, download.id)
        #expect(cancelled.state == .cancelled && cancelled.errorCode == -999 && cancelled.bytesTransferred == 5_000_000)
        #expect(engine.events(.transferFailed).isEmpty)
        try engine.advance(seconds: 600)
        #expect(engine.events(.transferCompleted).isEmpty)
        #expect(!engine.app().runtime.runs.contains { $0.kind == .urlSessionEvents })
        try engine.launch(app)
        let failed = try #require(engine.events(.transferFailed).first)
        #expect(failed.data["errorCode"] == .int(-999) && failed.data["transferId"] == .string(download.id))
        #expect(engine.seconds(of: failed) == 601)
        // Reported once only.
        try engine.background(app)
        try engine.launch(app)
        #expect(engine.events(.transferFailed).count == 1)
    }

    @Test func R34_discretionaryTransfersWaitForWifiAndPower() throws {
        var (engine, download) = try engineWithDownload(
            discretionary: true, conditions: DeviceConditions(charging: false, network: .cellular))
        #expect(download.state == .waiting)
        try engine.advance(seconds: 60)
        var conditions = engine.device.conditions
        conditions.network = .wifi
        engine.setConditions(conditions)
        try engine.advance(seconds: 60)
        #expect(transfer(engine, download.id).state == .waiting)  // Wi-Fi but no power
        conditions.charging = true
        engine.setConditions(conditions)
        #expect(transfer(engine, download.id).state == .running)
        try engine.advance(seconds: 2)
        #expect(transfer(engine, download.id).state == .completed)
    }

    @Test func R34_aTransferEnqueuedFromTheBackgroundIsDiscretionary() throws {
        var engine = EngineFixture.engine(conditions: DeviceConditions(charging: false, network: .wifi))
        try engine.launch(app)
        try engine.makeURLSession(app, identifier: Self.session, discretionary: false, sendsLaunchEvents: true)
        try engine.background(app)
        let upload = try engine.enqueueTransfer(app, session: Self.session, kind: .upload, bytes: 1_000)
        #expect(upload.discretionary && upload.state == .waiting)
    }

    @Test func R34_earliestBeginDateDelaysTheStart() throws {
        var engine = EngineFixture.engine()
        try engine.launch(app)
        try engine.makeURLSession(app, identifier: Self.session, discretionary: false, sendsLaunchEvents: true)
        let download = try engine.enqueueTransfer(
            app, session: Self.session, kind: .download, bytes: 5_000_000, earliestBeginDate: engine.now + .seconds(300))
        #expect(download.state == .waiting)
        try engine.advance(seconds: 400)
        let started = try #require(engine.events(.transferStarted).first)
        #expect(engine.seconds(of: started) == 300)
        #expect(engine.events(.transferCompleted).map { engine.seconds(of: $0) } == [301])
    }

    @Test func bandwidthIsATunable() throws {
        var engine = EngineFixture.engine(policy: ["wifiBandwidth": 100])
        try engine.launch(app)
        try engine.makeURLSession(app, identifier: Self.session, discretionary: false, sendsLaunchEvents: true)
        try engine.enqueueTransfer(app, session: Self.session, kind: .upload, bytes: 1_000)
        try engine.advance(seconds: 5)
        engine.setPolicyOverrides(["wifiBandwidth": 50])  // 500 bytes left at 50 B/s
        try engine.advance(seconds: 60)
        #expect(engine.events(.transferCompleted).map { engine.seconds(of: $0) } == [15])
        #expect(Profile.validate(["wifiBandwidth": 0]).count == 1)
    }

    @Test func appCancelsATransfer() throws {
        var (engine, download) = try engineWithDownload(bytes: 100_000_000)
        let cancelled = try engine.cancelTransfer(app, transferId: download.id)
        #expect(cancelled.state == .cancelled && cancelled.errorCode == -999)
        #expect(throws: EmulationError.self) { try engine.cancelTransfer(app, transferId: download.id) }
        #expect(throws: EmulationError.notFound(kind: "urlSession", id: "nope")) {
            try engine.enqueueTransfer(app, session: "nope", kind: .download, bytes: 1)
        }
    }
}

/// Devices stored before URL sessions and activities existed still load.
struct TransferStorageTests {
    @Test func aDeviceStoredWithoutTheNewKeysDecodes() throws {
        var engine = EngineFixture.engine()
        try engine.launch(EngineFixture.weather)
        let data = try JSONEncoder().encode(engine.device)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var runtime = try #require(object["runtime"] as? [String: Any])
        #expect(runtime["nextTransferNumber"] as? Int == 1)
        runtime["nextTransferNumber"] = nil
        object["runtime"] = runtime
        var apps = try #require(object["apps"] as? [[String: Any]])
        var appRuntime = try #require(apps[0]["runtime"] as? [String: Any])
        #expect(appRuntime["transfers"] is [Any])
        for key in ["urlSessions", "transfers", "activities"] { appRuntime[key] = nil }
        apps[0]["runtime"] = appRuntime
        object["apps"] = apps
        let old = try JSONSerialization.data(withJSONObject: object)
        let decoded = try JSONDecoder().decode(Device.self, from: old)
        #expect(decoded.apps[0].runtime.transfers.isEmpty && decoded.runtime.nextTransferNumber == 1)
        #expect(try JSONDecoder().decode(Device.self, from: data) == engine.device)
    }
}
