import Foundation
import Testing
@testable import Emulation

/// A forecast must never disagree with what one device emulated with the same inputs does: devices picked from a
/// forecast are replayed one by one as ordinary engine calls, the way a client of the API drives a device, and
/// their runs compared with the forecast's rows.
@Suite struct ForecastReplayTests {
    /// What a client sees of a replayed device: per kind, the runs started, those expired, the first's delay.
    struct Replayed: Equatable {
        var started: [String: Int] = [:]
        var expired: [String: Int] = [:]
        var firstDelay: [String: Double] = [:]
    }

    /// Drives a fresh engine through the device's timeline with the engine's public calls, then reads the app's runs.
    private func replay(_ request: ForecastRequest, device index: Int) throws -> Replayed {
        let person = Forecast.person(request, device: index)
        let timeline = Forecast.timeline(request, device: index)
        let device = Device(
            id: "dev_replay", tenantId: "ten_replay", name: "replay", osVersion: request.osVersion,
            clock: DeviceClock(start: timeline.start), conditions: timeline.initialConditions, seed: person.engineSeed,
            createdAt: Date(timeIntervalSince1970: 0))
        var engine = DeviceEngine(device: device)
        let app = request.app
        for action in timeline.actions {
            try engine.advance(to: action.at)
            switch action.command {
            case .install:
                var installed = try app.installation.validated(installedAt: engine.now)
                installed.behavior = app.resolvedBehavior
                try engine.install(installed)
                if person.appBackgroundAppRefreshOff {
                    try engine.setAppSettings(app.bundleId, AppSettings(backgroundAppRefresh: false))
                }
            case .open:
                try engine.launch(app.bundleId)
                for submission in app.atLaunch.submit {
                    let request = TaskRequest(
                        kind: submission.kind, identifier: submission.identifier,
                        earliestBeginDate: submission.earliestBeginSeconds.map { engine.now + .seconds($0) },
                        submittedAt: engine.now)
                    _ = try? engine.submit(app.bundleId, request)  // refused in Low Power Mode (R18), as on iOS
                }
                if let interval = app.atLaunch.fetchInterval { try engine.setFetchInterval(app.bundleId, interval) }
            case .leave(let forceQuit):
                if forceQuit { try engine.forceQuit(app.bundleId) } else { try engine.background(app.bundleId) }
            case .conditions(let conditions):
                engine.setConditions(conditions)
            case .push(let n):
                let body = #"{"aps":{"content-available":1}}"#
                let apnsId = "00000000-0000-4000-8000-" + String(format: "%012x", n)
                _ = try engine.receivePush(PushRequest(
                    apnsId: apnsId, payload: Array(body.utf8), topic: app.bundleId, pushType: "background", priority: "5"))
            }
        }
        try engine.advance(to: timeline.end)
        var replayed = Replayed()
        for run in try #require(engine.device.app(app.bundleId)).runtime.runs {
            let kind = run.kind.rawValue
            replayed.started[kind, default: 0] += 1
            if run.state == .expired { replayed.expired[kind, default: 0] += 1 }
            if replayed.firstDelay[kind] == nil { replayed.firstDelay[kind] = (run.startedAt - timeline.installAt).seconds }
        }
        return replayed
    }

    private func expected(_ row: ForecastDeviceRow) -> Replayed {
        var expected = Replayed()
        for (kind, runs) in row.runs where runs.started > 0 {
            expected.started[kind] = runs.started
            if runs.expired > 0 { expected.expired[kind] = runs.expired }
            expected.firstDelay[kind] = runs.firstRunDelaySeconds
        }
        return expected
    }

    @Test func threeDevicesReplayedThroughTheEngineRunAsTheForecastSays() throws {
        let request = ForecastFixture.request(seed: 5, devices: 24, days: 3, pushes: [ForecastPushSchedule(everyMinutes: 90)])
        let report = try Forecast.run(request, threads: 2)
        // The first device that ran its refresh, the first that never did, and the last one.
        let ran = try #require(report.devices.first { ($0.runs["appRefresh"]?.started ?? 0) > 0 })
        let never = try #require(report.devices.first { $0.runs["appRefresh"]?.started == 0 })
        for row in [ran, never, report.devices.last!] {
            #expect(try replay(request, device: row.device) == expected(row), "device \(row.device)")
        }
    }

    @Test func aHeavyAppThatExpiresReplaysTheSame() throws {
        var request = ForecastFixture.request(seed: 9, devices: 6, days: 2, population: ForecastFixture.ideal)
        // A handler that never completes: every run expires (R22) and the budget shrinks (R27).
        request.app.behavior = AppBehavior(runs: [
            .appRefresh: RunBehavior(completeAfter: nil, result: .success),
            .fetch: RunBehavior(completeAfter: .seconds(40), result: .newData),
        ])
        let report = try Forecast.run(request, threads: 2)
        #expect(try #require(report.result.appRefresh).expiredShare == 1)
        for row in report.devices.prefix(3) {
            #expect(try replay(request, device: row.device) == expected(row), "device \(row.device)")
        }
    }
}
