import Foundation
import Testing

/// The everyday flow without building a URL (issue 29 §2), through the real `bgemu` executable against a live
/// service: install, launch, submit, home, eligibility, advance, simulate-launch, complete, foreground, and the
/// debugger's simulate-expiration; what each prints, what it changes, `--json`, and its exit statuses.
@Suite(.serialized) struct EverydayFlowCommandTests {
    static let key = "everyday-e2e-key-0123456789"
    static let bundle = "com.example.news"
    static let refresh = "com.example.news.refresh"
    static let cleanup = "com.example.news.cleanup"

    func setUp() throws -> (LiveService, CommandLineRunner, String) {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        var cli = CommandLineRunner()
        cli.environment["BGEMU_URL"] = "http://127.0.0.1:\(service.port)"
        cli.environment["BGEMU_API_KEY"] = Self.key
        let created = try cli.run(["create", "everyday", "--seed", "7"])
        let device = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let body = service.directory.appendingPathComponent("app.json")
        try Data("""
            {"bundleId":"\(Self.bundle)","infoPlist":{"UIBackgroundModes":["fetch","processing"],
             "BGTaskSchedulerPermittedIdentifiers":["\(Self.refresh)","\(Self.cleanup)"]}}
            """.utf8).write(to: body)
        #expect(try cli.run(["install", device, body.path]).status == 0)
        #expect(try cli.run(["launch", device, Self.bundle]).status == 0)
        return (service, cli, device)
    }

    @Test func R15_R19_R24_submitHomeEligibilitySimulateLaunchCompleteAndForeground() throws {
        let (service, cli, device) = try setUp()
        defer { service.stop() }

        let submitted = try cli.run(["submit", device, Self.bundle, "appRefresh", Self.refresh, "--earliest", "30m"])
        #expect(submitted.status == 0, "\(submitted.stderr)")
        #expect(submitted.lines == ["submitted appRefresh \(Self.refresh) for \(Self.bundle) on \(device), not before 2026-01-01T00:30:00.000Z"])

        let home = try cli.run(["home", device, Self.bundle])
        #expect(home.status == 0, "\(home.stderr)")
        #expect(home.lines.first?.hasPrefix("sent \(Self.bundle) home on \(device): background") == true, "\(home.lines)")

        // Not before 00:30: the table says so, condition by condition, with the rule.
        let table = try cli.run(["eligibility", device, Self.bundle, Self.refresh])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.lines.first == "appRefresh \(Self.refresh): not eligible")
        #expect(table.lines.contains { $0.hasPrefix("✘") && $0.contains("earliestBeginDate") && $0.contains("R19") }, "\(table.lines)")
        #expect(table.lines.contains { $0.hasPrefix("✔") && $0.contains("permitted") && $0.contains("R15") })
        let json = try cli.run(["eligibility", device, Self.bundle, Self.refresh, "--json"])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(answer["eligible"] as? Bool == false)

        // The debugger's launch: the run starts now; complete it by its id alone.
        let launched = try cli.run(["simulate-launch", device, Self.bundle, Self.refresh])
        #expect(launched.status == 0, "\(launched.stderr)")
        let runId = try #require(launched.lines.first?.components(separatedBy: "run ").last)
        #expect(runId.hasPrefix("run_"), "\(launched.lines)")
        let completed = try cli.run(["complete", device, runId])
        #expect(completed.status == 0, "\(completed.stderr)")
        #expect(completed.lines.first?.hasPrefix("completed \(runId) of \(Self.bundle) on \(device)") == true, "\(completed.lines)")
        let events = try service.client(key: Self.key).request("GET", "/v1/devices/\(device)/events?runId=\(runId)&limit=50")
            .json["items"] as? [[String: Any]] ?? []
        let completion = events.first { $0["type"] as? String == "run.completed" }
        #expect((completion?["data"] as? [String: Any])?["result"] as? String == "success", "\(events)")

        let foreground = try cli.run(["foreground", device, Self.bundle])
        #expect(foreground.status == 0, "\(foreground.stderr)")
        #expect(foreground.lines.first?.hasPrefix("brought \(Self.bundle) to the foreground on \(device): active") == true)
    }

    @Test func R20_R24_aProcessingRequestKeepsItsConditionsAndSimulateExpirationTellsItsRunToExpire() throws {
        let (service, cli, device) = try setUp()
        defer { service.stop() }
        let submitted = try cli.run(["submit", device, Self.bundle, "processing", Self.cleanup, "--requires-power", "--json"])
        #expect(submitted.status == 0, "\(submitted.stderr)")
        let request = try #require(try JSONSerialization.jsonObject(with: Data(submitted.stdout.utf8)) as? [String: Any])
        #expect(request["requiresExternalPower"] as? Bool == true && request["requiresNetworkConnectivity"] as? Bool == false)
        #expect(try cli.run(["home", device, Self.bundle]).status == 0)
        #expect(try cli.run(["simulate-launch", device, Self.bundle, Self.cleanup]).status == 0)
        let expired = try cli.run(["simulate-expiration", device, Self.bundle, Self.cleanup])
        #expect(expired.status == 0, "\(expired.stderr)")
        #expect(expired.lines.first?.hasPrefix("told \(Self.cleanup) of \(Self.bundle) on \(device) to expire") == true, "\(expired.lines)")
        let expiring = try service.client(key: Self.key).request("GET", "/v1/devices/\(device)/events?type=run.expiring&limit=5")
            .json["items"] as? [[String: Any]] ?? []
        #expect((expiring.first?["data"] as? [String: Any])?["reason"] as? String == "simulateExpiration", "\(expiring)")
    }

    @Test func refusalsExitOneWithTheProblemAndAHint() throws {
        let (service, cli, device) = try setUp()
        defer { service.stop() }
        let notPermitted = try cli.run(["submit", device, Self.bundle, "appRefresh", "com.example.other"])
        #expect(notPermitted.status == 1)
        #expect(notPermitted.stderr.contains("notPermitted") && notPermitted.stderr.contains("hint:"), "\(notPermitted.stderr)")
        let noRun = try cli.run(["complete", device, "run_999"])
        #expect(noRun.status == 1 && noRun.stderr.contains("has no run run_999"), "\(noRun.stderr)")
        let usage = try cli.run(["submit", device, Self.bundle, "appRefresh", Self.refresh, "--requires-power"])
        #expect(usage.status != 0 && usage.stderr.contains("processing requests"), "\(usage.stderr)")
        let help = try cli.run(["simulate-launch", "--help"])
        #expect(help.status == 0 && help.stdout.contains("_simulateLaunchForTaskWithIdentifier:"))
        var unreachable = cli
        unreachable.environment["BGEMU_URL"] = "http://127.0.0.1:1"
        #expect(try unreachable.run(["home", device, Self.bundle]).status == 2)
    }

    @Test func forecastTakesTheBundleIdFromTheCommandLine() throws {
        let (service, cli, _) = try setUp()
        defer { service.stop() }
        let request = service.directory.appendingPathComponent("forecast.json")
        try Data(#"{"seed":1,"devices":5,"days":1,"app":{"infoPlist":{"UIBackgroundModes":["fetch"],"BGTaskSchedulerPermittedIdentifiers":["com.example.news.refresh"]},"atLaunch":{"submit":[{"kind":"appRefresh","identifier":"com.example.news.refresh"}]}}}"#.utf8).write(to: request)
        let without = try cli.run(["forecast", request.path])
        #expect(without.status == 1 && without.stderr.contains("bundleId"), "\(without.stderr)")
        let with = try cli.run(["forecast", request.path, "--bundle-id", Self.bundle, "--json"])
        #expect(with.status == 0, "\(with.stderr)")
        let forecast = try #require(try JSONSerialization.jsonObject(with: Data(with.stdout.utf8)) as? [String: Any])
        #expect(forecast["state"] as? String == "done")
        #expect(((forecast["request"] as? [String: Any])?["app"] as? [String: Any])?["bundleId"] as? String == Self.bundle, "\(forecast.keys)")
    }
}
