import Emulation
import Foundation
import Testing
@testable import API

/// A forecast's `result` as the service writes it meets the contract's `ForecastResult` schema: the pushes' exclusive
/// `outcomes` and their `overlapping` figures included, every required field, nothing undeclared.
@Suite struct ForecastResultSchemaTests {
    static func request(pushes: [ForecastPushSchedule]) -> ForecastRequest {
        let app = ForecastApp(
            bundleId: "com.example.news",
            infoPlist: ForecastInfoPlist(UIBackgroundModes: ["fetch", "remote-notification"], BGTaskSchedulerPermittedIdentifiers: ["com.example.news.refresh"]),
            atLaunch: ForecastLaunchActions(submit: [ForecastSubmission(kind: .appRefresh, identifier: "com.example.news.refresh")], fetchInterval: .minimum))
        return ForecastRequest(seed: 29, devices: 12, days: 2, app: app, pushes: pushes)
    }

    @Test func theWrittenResultWithPushOutcomesMeetsTheContract() throws {
        let contract = try ContractSchema.load()
        for pushes in [[], [ForecastPushSchedule(everyMinutes: 30)]] {
            let result = try Forecast.run(Self.request(pushes: pushes), threads: 2).result
            let written = try JSONBody.encoder.encode(result)
            #expect(try contract.problems(written, against: "ForecastResult") == [])
        }
        // Not vacuous: an outcome without its count, or an undeclared overlap, is found.
        let result = try Forecast.run(Self.request(pushes: [ForecastPushSchedule(everyMinutes: 30)]), threads: 2).result
        var json = try #require(try JSONSerialization.jsonObject(with: Data(JSONBody.encoder.encode(result))) as? [String: Any])
        var pushes = try #require(json["pushes"] as? [String: Any])
        var outcomes = try #require(pushes["outcomes"] as? [String: Any])
        outcomes["pending"] = ["share": 0]
        pushes["outcomes"] = outcomes
        var overlapping = try #require(pushes["overlapping"] as? [String: Any])
        overlapping["deferredTwice"] = ["count": 0, "share": 0]
        pushes["overlapping"] = overlapping
        json["pushes"] = pushes
        let broken = Array(try JSONSerialization.data(withJSONObject: json))
        #expect(try contract.problems(broken, against: "ForecastResult").count == 2)
    }
}
