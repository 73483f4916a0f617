import Foundation
import Testing

/// A forecast split across workers (issue 30 §3), through the real executable: `bgemu forecast FILE --shard i/K`
/// computes each part without a service, and `bgemu forecast merge` of the K parts gives, byte for byte, the result
/// and per-device CSV of K = 1 — and of the service's own forecast of the same request.
@Suite(.serialized) struct ForecastShardEndToEndTests {
    static let key = "forecast-shard-e2e-key-0123456789"
    static let request = """
        {"seed":11,"devices":30,"days":2,"app":{"bundleId":"com.example.news","infoPlist":{
         "UIBackgroundModes":["fetch","remote-notification"],"BGTaskSchedulerPermittedIdentifiers":["com.example.news.refresh"]},
         "atLaunch":{"submit":[{"kind":"appRefresh","identifier":"com.example.news.refresh"}]}},
         "pushes":[{"everyMinutes":240}]}
        """

    @Test func fourPartsMergeToTheWholeForecastByteForByteAndToTheServices() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let cli = CommandLineRunner()
        let folder = service.directory
        let file = folder.appendingPathComponent("request.json")
        try Data(Self.request.utf8).write(to: file)
        func part(_ i: Int, of k: Int) throws -> String {
            let out = folder.appendingPathComponent("part-\(i)-of-\(k).json").path
            let run = try cli.run(["forecast", file.path, "--shard", "\(i)/\(k)", "--out", out])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("forecast part \(i)/\(k):") && run.stderr.contains("device-days/s per worker"))
            return out
        }
        let whole = try part(0, of: 1)
        let parts = try [3, 1, 0, 2].map { try part($0, of: 4) }
        let oneCSV = folder.appendingPathComponent("one.csv").path, fourCSV = folder.appendingPathComponent("four.csv").path
        let one = try cli.run(["forecast", "merge", whole, "--json", "--csv", oneCSV])
        let four = try cli.run(["forecast", "merge"] + parts + ["--json", "--csv", fourCSV])
        #expect(one.status == 0 && four.status == 0, "\(one.stderr) \(four.stderr)")
        #expect(one.stdout == four.stdout)
        #expect(try Data(contentsOf: URL(fileURLWithPath: oneCSV)) == Data(contentsOf: URL(fileURLWithPath: fourCSV)))

        // The service's forecast of the same request: the same result and the same rows.
        let api = service.client(key: Self.key)
        let created = try api.request("POST", "/v1/forecasts", json: Self.request)
        let id = try #require(created.json["forecastId"] as? String, "\(created.status)")
        var forecast = created.json
        let deadline = Date().addingTimeInterval(120)
        while forecast["state"] as? String == "running", Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            forecast = try api.request("GET", "/v1/forecasts/\(id)").json
        }
        #expect(forecast["state"] as? String == "done")
        let served = try JSONSerialization.data(withJSONObject: try #require(forecast["result"]), options: [.sortedKeys])
        let merged = try JSONSerialization.data(
            withJSONObject: try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)), options: [.sortedKeys])
        #expect(served == merged)
        let rows = try api.request("GET", "/v1/forecasts/\(id)/devices", headers: [("Accept", "text/csv")])
        #expect(rows.body == Array(try Data(contentsOf: URL(fileURLWithPath: oneCSV))))
    }

    @Test func aMissingOrRepeatedPartIsRefusedNamingIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bgemu-shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cli = CommandLineRunner()
        let file = folder.appendingPathComponent("request.json")
        try Data(Self.request.utf8).write(to: file)
        let out = folder.appendingPathComponent("p0.json").path
        #expect(try cli.run(["forecast", file.path, "--shard", "0/3", "--out", out]).status == 0)
        let missing = try cli.run(["forecast", "merge", out, out])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("a part is given twice") && missing.stderr.contains("parts missing: 1/3, 2/3"), "\(missing.stderr)")
        let bad = try cli.run(["forecast", file.path, "--shard", "3/3"])
        #expect(bad.status != 0 && bad.stderr.contains("--shard must be i/K"), "\(bad.stderr)")
    }
}
