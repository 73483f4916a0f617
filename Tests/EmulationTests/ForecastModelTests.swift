import Foundation
import Testing
@testable import Emulation

/// The request as the JSON gives it: absent fields take their documented defaults, and bad values are
/// named by field.
@Suite struct ForecastModelTests {
    static let body = """
        {"seed": 42, "devices": 200, "days": 3, "osVersion": "17.4",
         "app": {"bundleId": "com.example.weather",
                 "infoPlist": {"UIBackgroundModes": ["fetch", "remote-notification"],
                               "BGTaskSchedulerPermittedIdentifiers": ["com.example.weather.refresh"]},
                 "behavior": {"appRefresh": {"completeAfter": 3, "result": "success", "resubmit": true, "resubmitAfter": 1800},
                              "fetch": {"completeAfter": "never", "result": "noData"}},
                 "atLaunch": {"submit": [{"kind": "appRefresh", "identifier": "com.example.weather.refresh",
                                          "earliestBeginSeconds": 900}],
                              "fetchInterval": "minimum"}},
         "population": {"forceQuitShare": 0.2, "lowPowerModeShare": 0.1},
         "pushes": [{"everyMinutes": 60}]}
        """

    @Test func absentFieldsTakeTheirDefaults() throws {
        let request = try JSONDecoder().decode(ForecastRequest.self, from: Data(Self.body.utf8))
        #expect(request.osVersion == OSVersion("17.4"))
        #expect(request.population.forceQuitShare == 0.2)
        #expect(request.population.lowPowerModeShare == 0.1)
        var expected = ForecastPopulation.defaults
        expected.forceQuitShare = 0.2
        expected.lowPowerModeShare = 0.1
        #expect(request.population == expected)
        #expect(request.pushes == [ForecastPushSchedule(everyMinutes: 60, priority: 5)])
        #expect(request.app.behavior?.runs[.appRefresh] == RunBehavior(
            completeAfter: .seconds(3), result: .success, resubmit: true, resubmitAfter: .seconds(1800)))
        #expect(request.app.behavior?.runs[.fetch] == RunBehavior(completeAfter: nil, result: .noData))
        #expect(request.app.atLaunch.fetchInterval == .minimum)
        #expect(request.app.reportedKinds == [.appRefresh, .fetch])
        #expect(request.validate().isEmpty)
    }

    @Test func aRequestSurvivesEncodingAndDecoding() throws {
        let request = try JSONDecoder().decode(ForecastRequest.self, from: Data(Self.body.utf8))
        let again = try JSONDecoder().decode(ForecastRequest.self, from: JSONEncoder().encode(request))
        #expect(again == request)
    }

    @Test func everyDefaultShareIsAShareAndThePatternsMakeSense() {
        let d = ForecastPopulation.defaults
        for share in [d.lowPowerModeShare, d.lowPowerModeWhenLowShare, d.backgroundAppRefreshOffShare,
                      d.appBackgroundAppRefreshOffShare, d.forceQuitShare] {
            #expect((0...1).contains(share))
        }
        #expect(d.usage.map(\.name) == ["commuter", "evening", "rare"])
        #expect(abs(d.usage.map(\.share).reduce(0, +) - 1) < 1e-9)
        #expect(abs(d.charging.map(\.share).reduce(0, +) - 1) < 1e-9)
        #expect(d.lowPowerModeBatteryLevel == Profile.ios13.criticalBatteryLevel)
    }

    @Test func badValuesAreNamedByField() {
        var request = ForecastFixture.request()
        request.devices = 0
        request.population.forceQuitShare = 1.5
        request.population.usage[0].hours = [25]
        request.pushes = [ForecastPushSchedule(everyMinutes: 30, priority: 1)]
        request.app.atLaunch.submit.append(ForecastSubmission(kind: .processing, identifier: "com.example.other"))
        let fields = request.validate().map(\.field)
        #expect(fields.contains("devices"))
        #expect(fields.contains("population.forceQuitShare"))
        #expect(fields.contains("population.usage[0].hours[0]"))
        #expect(fields.contains("pushes[0].priority"))
        #expect(fields.contains("app.atLaunch.submit[1].identifier"))
        #expect(fields.contains("app.atLaunch.submit[1].kind"))
        #expect(throws: EmulationError.self) { try Forecast.run(request, threads: 1) }
    }

    @Test func aPersonsTimelineInstallsAtTheFirstOpenAndEndsDaysLater() {
        let request = ForecastFixture.request(days: 3)
        for index in 0..<10 {
            let timeline = Forecast.timeline(request, device: index)
            let install = timeline.actions.firstIndex { $0.command == .install }!
            #expect(timeline.actions[install].at == timeline.installAt)
            #expect(timeline.actions[install + 1].command == .open)
            #expect(timeline.installAt < timeline.start + .seconds(86_400))
            #expect(timeline.end == timeline.installAt + .seconds(3 * 86_400))
            #expect(zip(timeline.actions, timeline.actions.dropFirst()).allSatisfy { $0.at <= $1.at })
            #expect(timeline.actions.allSatisfy { $0.at < timeline.end })
        }
    }
}
