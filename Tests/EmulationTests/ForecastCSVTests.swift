import Foundation
import Testing
@testable import Emulation

/// The per-device CSV: one line per device, and the summary recomputed from its lines is the summary.
@Suite struct ForecastCSVTests {
    /// The CSV's lines as field arrays (no field of these rows is quoted), and the header's column indices.
    private func table(_ csv: String) -> (header: [String: Int], rows: [[String]]) {
        var lines = csv.components(separatedBy: "\r\n")
        #expect(lines.last == "", "every line ends with CRLF")
        lines.removeLast()
        let header = lines.removeFirst().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let columns = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })
        return (columns, lines.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) })
    }

    @Test func theSummaryRecomputedFromTheCSVIsTheSummary() throws {
        let request = ForecastFixture.request(devices: 30, pushes: [ForecastPushSchedule(everyMinutes: 120)])
        let report = try Forecast.run(request, threads: 2)
        let (column, rows) = table(report.csv())
        #expect(rows.count == 30)
        #expect(rows.allSatisfy { $0.count == column.count })
        #expect(rows.map { $0[column["device"]!] } == (0..<30).map(String.init))
        for (kind, summary) in [("appRefresh", report.result.appRefresh), ("fetch", report.result.fetch)] {
            let summary = try #require(summary, "the fixture's app uses \(kind)")
            let delays = rows.map { Double($0[column["\(kind).firstRunDelaySeconds"]!]) }
            for window in ForecastKindSummary.windows {
                let share = Double(delays.filter { $0 != nil && $0! <= window.seconds }.count) / 30
                #expect(abs(share - summary.devicesWithRunWithin[window.name]!) < 0.0001, "\(kind) \(window.name)")
            }
            let started = rows.map { Int($0[column["\(kind).started"]!])! }
            let perDay = Double(started.reduce(0, +)) / 30 / Double(request.days)
            #expect(abs(perDay - summary.runsPerDevicePerDay.mean) < 0.0001, "\(kind) runs a day")
            let never = rows.filter { Int($0[column["\(kind).started"]!]) == 0 }
            #expect(abs(Double(never.count) / 30 - summary.devicesWithoutRun) < 0.0001)
            var charged: [String: Int] = [:]
            for row in never { charged[row[column["\(kind).whyNot"]!], default: 0] += 1 }
            for (condition, count) in charged {
                #expect(abs(Double(count) / Double(never.count) - (summary.whyNot[condition] ?? -1)) < 0.0001, "\(condition)")
            }
            #expect(rows.filter { Int($0[column["\(kind).started"]!])! > 0 }.allSatisfy { $0[column["\(kind).whyNot"]!].isEmpty })
        }
        let pushes = try #require(report.result.pushes)
        #expect(rows.map { Int($0[column["pushes.sent"]!])! }.reduce(0, +) == pushes.sent)
    }

    @Test func aFieldWithACommaAQuoteOrALineEndIsQuoted() {
        #expect(ForecastReport.csvField("commuter") == "commuter")
        #expect(ForecastReport.csvField("a,b") == "\"a,b\"")
        #expect(ForecastReport.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(ForecastReport.csvField("two\nlines") == "\"two\nlines\"")
    }
}
