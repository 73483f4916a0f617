import ArgumentParser
import BGEmuClient
import Foundation

/// `bgemu forecast merge PART…`: the parts of `bgemu forecast FILE --shard i/K` put together (issue 30): the forecast
/// of the whole fleet, byte for byte what one worker (`--shard 0/1`) gives, whatever K.
struct ForecastMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the parts of a forecast computed with --shard i/K.",
        discussion: """
            Every part of one request must be given, each once (0/K … K-1/K, in any order). Prints the summary, or \
            with --json the forecast's result as the service answers it (`result` of GET /v1/forecasts/{id}); \
            --csv writes the per-device rows, as GET /v1/forecasts/{id}/devices answers them.
            """)

    @Argument(help: "The parts (JSON files written by --shard i/K --out).")
    var parts: [String]

    @Flag(help: "Print the merged result as JSON instead of the summary.")
    var json = false

    @Option(help: "Also write the per-device rows (CSV) to this file.")
    var csv: String?

    func run() throws {
        try CommandFailure.reporting {
            let report = try LocalForecast.merge(parts)
            let result = try LocalForecast.encoder.encode(report.result)
            if let csv {
                guard FileManager.default.createFile(atPath: csv, contents: Data(report.csv().utf8)) else {
                    throw CommandFailure.local("cannot write \(csv)")
                }
            }
            if json { return Terminal.line(String(decoding: result, as: UTF8.self)) }
            let forecast: JSONValue = ["forecastId": "merged", "result": try JSONValue.parse(Array(result))]
            for line in ForecastSummary.lines(forecast) { Terminal.line(line) }
            if let csv { Terminal.line("per-device rows: \(csv)") }
        }
    }
}
