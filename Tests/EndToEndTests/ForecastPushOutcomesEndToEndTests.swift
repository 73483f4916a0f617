import Foundation
import Testing

/// Issue 29 §1 through the real executable against a live service: `bgemu forecast FILE` prints the push outcomes
/// the service's result carries — counts adding up to the pushes sent, percentages adding up to 100.00 % — and the
/// share deferred at least once on a line of its own.
@Suite(.serialized) struct ForecastPushOutcomesEndToEndTests {
    static let key = "forecast-push-outcomes-key-0123456789"
    static let request = """
        {"seed": 29, "devices": 60, "days": 2,
         "app": {"bundleId": "com.example.news", "infoPlist": {"UIBackgroundModes": ["fetch", "remote-notification"],
                 "BGTaskSchedulerPermittedIdentifiers": ["com.example.news.refresh"]},
                 "atLaunch": {"submit": [{"kind": "appRefresh", "identifier": "com.example.news.refresh"}]}},
         "population": {"lowPowerModeShare": 0.3, "forceQuitShare": 0.2},
         "pushes": [{"everyMinutes": 20}]}
        """

    @Test func thePrintedOutcomesAreTheResultsAndAddUpToEveryPushSent() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        var cli = CommandLineRunner()
        cli.environment["BGEMU_URL"] = "http://127.0.0.1:\(service.port)"
        cli.environment["BGEMU_API_KEY"] = Self.key
        let file = service.directory.appendingPathComponent("forecast.json")
        try Data(Self.request.utf8).write(to: file)
        let run = try cli.run(["forecast", file.path, "--poll", "0.05"])
        #expect(run.status == 0, "\(run.stderr)")

        let api = service.client(key: Self.key)
        let list = try api.request("GET", "/v1/forecasts").json["forecasts"] as? [[String: Any]] ?? []
        let id = try #require(list.first?["forecastId"] as? String)
        let result = try #require(try api.request("GET", "/v1/forecasts/\(id)").json["result"] as? [String: Any])
        let pushes = try #require(result["pushes"] as? [String: Any])
        let sent = try #require(pushes["sent"] as? Int)
        let outcomes = try #require(pushes["outcomes"] as? [String: [String: Any]])
        let names = ["deliveredAtOnce", "deliveredLater", "coalesced", "dropped", "pending"]
        let counts = names.map { outcomes[$0]?["count"] as? Int ?? -1 }
        let shares = names.map { outcomes[$0]?["share"] as? Double ?? -1 }
        #expect(sent > 0 && counts.reduce(0, +) == sent)
        #expect(shares.map { Int(($0 * 10_000).rounded()) }.reduce(0, +) == 10_000)

        // The line is the result's figures, word for word, in the documented order.
        let expected = "  outcomes (one per push, adding up to the \(sent) sent): " + zip(names, zip(counts, shares))
            .map { "\($0.0) \($0.1.0) (" + String(format: "%.2f %%", $0.1.1 * 100) + ")" }.joined(separator: ", ")
        #expect(run.lines.contains("pushes (\(sent) sent):"), "\(run.stdout)")
        #expect(run.lines.contains(expected), "\(run.stdout)")
        let printed = try #require(run.lines.first { $0.hasPrefix("  outcomes (") })
        let percents = printed.split(separator: "(").dropFirst(2).compactMap { Double($0.split(separator: " ")[0]) }
        #expect(percents.count == 5 && abs(percents.reduce(0, +) - 100) < 1e-9, "\(printed)")

        let deferred = try #require((pushes["overlapping"] as? [String: [String: Any]])?["deferredAtLeastOnce"])
        let deferredCount = try #require(deferred["count"] as? Int)
        #expect(deferredCount <= sent)
        #expect(run.lines.contains("  deferred at least once by the power-aware policy (R30), overlapping the outcomes: "
            + "\(deferredCount) (" + String(format: "%.2f %%", (deferred["share"] as? Double ?? -1) * 100) + ")"))
    }
}
