import Foundation
import Testing

/// `bgemu forecast FILE.json` against a live service: it waits for the forecast, prints what the service's result
/// says, writes the service's CSV, sends a real Info.plist with its build settings, and exits 1 with the problem's
/// detail on a refusal.
@Suite(.serialized) struct ForecastCommandEndToEndTests {
    static let key = "forecast-cli-key-0123456789"

    func setUp() throws -> (LiveService, CommandLineRunner) {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        var cli = CommandLineRunner()
        cli.environment["BGEMU_URL"] = "http://127.0.0.1:\(service.port)"
        cli.environment["BGEMU_API_KEY"] = Self.key
        return (service, cli)
    }

    /// Mullvad VPN's real Info.plist (its BGTask identifiers are `$(APPLICATION_IDENTIFIER).…`), forecast for its
    /// app refresh; the request file gives the rest.
    static let request = """
        {"seed": 5, "devices": 120, "days": 2,
         "app": {"bundleId": "net.mullvad.MullvadVPN",
                 "atLaunch": {"submit": [{"kind": "appRefresh", "identifier": "net.mullvad.MullvadVPN.AppRefresh"}],
                              "fetchInterval": "minimum"}}}
        """

    @Test func aRealInfoPlistsForecastPrintsTheServicesFiguresAndWritesItsCSV() throws {
        let (service, cli) = try setUp()
        defer { service.stop() }
        let file = service.directory.appendingPathComponent("forecast.json")
        try Data(Self.request.utf8).write(to: file)
        let plist = CommandLineRunner.fixtures.appendingPathComponent("RealProjects/mullvad-ios-Info.plist").path
        let csv = service.directory.appendingPathComponent("devices.csv").path
        let run = try cli.run([
            "forecast", file.path, "--info-plist", plist, "--setting", "APPLICATION_IDENTIFIER=net.mullvad.MullvadVPN",
            "--csv", csv, "--poll", "0.05",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // Not a terminal: progress as lines on standard error, the last one 100 %.
        #expect(run.stderr.split(separator: "\n").last == "forecast: 100 %", "\(run.stderr)")

        let api = service.client(key: Self.key)
        let list = try api.request("GET", "/v1/forecasts").json["forecasts"] as? [[String: Any]] ?? []
        let id = try #require(list.first?["forecastId"] as? String)
        let forecast = try api.request("GET", "/v1/forecasts/\(id)").json
        let request = try #require(forecast["request"] as? [String: Any])
        let app = try #require(request["app"] as? [String: Any])
        let infoPlist = try #require(app["infoPlist"] as? [String: Any])
        #expect(infoPlist["BGTaskSchedulerPermittedIdentifiers"] as? [String] == [
            "net.mullvad.MullvadVPN.AppRefresh", "net.mullvad.MullvadVPN.PrivateKeyRotation",
            "net.mullvad.MullvadVPN.AddressCacheUpdate",
        ])
        let result = try #require(forecast["result"] as? [String: Any])
        let refresh = try #require(result["appRefresh"] as? [String: Any])
        let within = try #require(refresh["devicesWithRunWithin"] as? [String: Double])
        let shares = ["1h", "4h", "24h"].map { String(format: "%.1f %%", within[$0]! * 100) }.joined(separator: " / ")
        #expect(run.lines.first == "forecast \(id): 120 devices × 2 days (\(Int((forecast["devicesPerSecond"] as! Double).rounded())) devices/s)")
        #expect(run.lines.contains("app refresh:"))
        #expect(run.lines.contains("background fetch:"))
        #expect(run.lines.contains("  devices with a run within 1h / 4h / 24h of install: \(shares)"))
        #expect(run.lines.last == "per-device rows: \(csv)")
        let written = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(written == (try api.request("GET", "/v1/forecasts/\(id)/devices").text))
        #expect(written.split(separator: "\r\n").count == 121)
    }

    @Test func jsonPrintsTheFinishedForecastAndARefusalExitsOneWithItsDetail() throws {
        let (service, cli) = try setUp()
        defer { service.stop() }
        let file = service.directory.appendingPathComponent("forecast.json")
        let body = Self.request.replacingOccurrences(of: "\"bundleId\": \"net.mullvad.MullvadVPN\",", with: "\"bundleId\": \"net.mullvad.MullvadVPN\", \"infoPlist\": {\"UIBackgroundModes\": [\"fetch\"], \"BGTaskSchedulerPermittedIdentifiers\": [\"net.mullvad.MullvadVPN.AppRefresh\"]},")
        try Data(body.utf8).write(to: file)
        let run = try cli.run(["forecast", file.path, "--json", "--poll", "0.05"])
        #expect(run.status == 0, "\(run.stderr)")
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(printed["state"] as? String == "done")
        let id = try #require(printed["forecastId"] as? String)
        let served = try service.client(key: Self.key).request("GET", "/v1/forecasts/\(id)").json
        #expect(NSDictionary(dictionary: printed).isEqual(to: served))

        // Without the build setting, the Info.plist's identifiers do not resolve: the service's problem is shown.
        let plist = CommandLineRunner.fixtures.appendingPathComponent("RealProjects/mullvad-ios-Info.plist").path
        let refused = try cli.run(["forecast", file.path, "--info-plist", plist])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("app.infoPlist.BGTaskSchedulerPermittedIdentifiers"), "\(refused.stderr)")
        #expect(refused.stderr.contains("APPLICATION_IDENTIFIER"), "\(refused.stderr)")

        // While the tenant has a forecast running, the refusal comes with what to do about it.
        let api = service.client(key: Self.key)
        let big = body.replacingOccurrences(of: "\"devices\": 120, \"days\": 2", with: "\"devices\": 100000, \"days\": 10")
        let running = try api.request("POST", "/v1/forecasts", json: big)
        #expect(running.status == 202, "\(running.text)")
        let busy = try cli.run(["forecast", file.path])
        #expect(busy.status == 1)
        #expect(busy.stderr.contains("hint: one forecast runs at a time per tenant"), "\(busy.stderr)")
        if let id = running.json["forecastId"] as? String { _ = try api.request("DELETE", "/v1/forecasts/\(id)") }
    }
}
