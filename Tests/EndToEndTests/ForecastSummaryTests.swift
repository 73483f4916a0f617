@testable import bgemu
import BGEmuClient
import Foundation
import Testing

/// How `bgemu forecast` words a finished forecast and draws its progress.
struct ForecastSummaryTests {
    @Test func durationsReadLargestUnitFirstWithTwoUnitsAtMost() {
        #expect(ForecastSummary.duration(0.0) == "0s")
        #expect(ForecastSummary.duration(45.4) == "45s")
        #expect(ForecastSummary.duration(725.0) == "12m 5s")
        #expect(ForecastSummary.duration(3_600.0) == "1h")
        #expect(ForecastSummary.duration(12_000.0) == "3h 20m")
        #expect(ForecastSummary.duration(187_200.0) == "2d 4h")
        #expect(ForecastSummary.duration(nil) == "–")
        #expect(ForecastSummary.duration(-1.0) == "–")
    }

    @Test func aKindsLinesCarryEveryFigureOfItsSummaryAndWhyNotLargestFirst() {
        let summary: JSONValue = [
            "devicesWithRunWithin": ["1h": 0.125, "4h": 0.5, "24h": 0.875],
            "firstRunDelaySeconds": ["p50": 5_400.0, "p90": 30_000.0, "p99": 80_000.0],
            "runsPerDevicePerDay": ["mean": 1.25, "p50": 1.0, "p90": 3.0],
            "expiredShare": 0.02, "devicesWithoutRun": 0.125,
            "whyNot": ["lowPowerMode": 0.2, "forceQuit": 0.8],
        ]
        let lines = ForecastSummary.kindLines("app refresh", summary)
        #expect(lines == [
            "app refresh:",
            "  devices with a run within 1h / 4h / 24h of install: 12.5 % / 50.0 % / 87.5 %",
            "  first run after install: p50 1h 30m, p90 8h 20m, p99 22h 13m",
            "  runs per device per day: mean 1.25, p50 1.00, p90 3.00",
            "  runs that expired: 2.0 %",
            "  devices that never ran it: 12.5 %",
            "    why not: forceQuit 80.0 %, lowPowerMode 20.0 %",
        ])
    }

    @Test func theSummaryListsOnlyTheKindsTheResultHasThenThePushes() {
        let kind: JSONValue = [
            "devicesWithRunWithin": ["1h": 0.0, "4h": 0.0, "24h": 0.0], "runsPerDevicePerDay": ["mean": 0.0, "p50": 0.0, "p90": 0.0],
            "expiredShare": 0.0, "devicesWithoutRun": 1.0, "whyNot": ["lowPowerMode": 1.0],
        ]
        let forecast: JSONValue = [
            "forecastId": "fc_1", "state": "done", "devicesPerSecond": 1234.4,
            "result": ["devices": 10, "days": 2, "fetch": kind, "pushes": ["sent": 4, "deliveredAtOnce": 0.5, "dropped": 0.5]],
        ]
        let lines = ForecastSummary.lines(forecast)
        #expect(lines.first == "forecast fc_1: 10 devices × 2 days (1234 devices/s)")
        #expect(lines.contains("background fetch:"))
        #expect(!lines.contains("app refresh:"))
        #expect(lines.contains("  first run after install: no device ran it"))
        #expect(lines.contains("pushes (4 sent):"))
        #expect(lines.contains { $0.hasPrefix("  outcomes: deliveredAtOnce 50.0 %, deliveredLater") })
        #expect(lines.last?.hasPrefix("  first deferred by the power-aware policy") == true)
    }

    @Test func thePushOutcomesArePrintedFromTheResultsCountsAndSharesAndTheOverlapApart() {
        func tally(_ count: Int, _ share: Double) -> JSONValue { ["count": .integer(count), "share": .number(share)] }
        let pushes: JSONValue = [
            "sent": 3,
            "outcomes": [
                "deliveredAtOnce": tally(1, 0.3334), "deliveredLater": tally(1, 0.3333), "coalesced": tally(0, 0),
                "dropped": tally(1, 0.3333), "pending": tally(0, 0),
            ],
            "overlapping": ["deferredAtLeastOnce": tally(2, 0.6667), "delivered": tally(2, 0.6667)],
            "deliveredAtOnce": 0.3334, "deferred": 0.6667, "deliveredLater": 0.3333, "coalesced": 0.0, "dropped": 0.3333, "pending": 0.0,
        ]
        #expect(ForecastSummary.pushLines(pushes) == [
            "pushes (3 sent):",
            "  outcomes (one per push, adding up to the 3 sent): deliveredAtOnce 1 (33.34 %), deliveredLater 1 (33.33 %), "
                + "coalesced 0 (0.00 %), dropped 1 (33.33 %), pending 0 (0.00 %)",
            "  deferred at least once by the power-aware policy (R30), overlapping the outcomes: 2 (66.67 %)",
        ])
    }

    @Test func theBarFillsItsThirtyCellsInProportion() {
        #expect(ForecastProgressBar.bar(0) == "[" + String(repeating: ".", count: 30) + "]   0 %")
        #expect(ForecastProgressBar.bar(0.5) == "[" + String(repeating: "#", count: 15) + String(repeating: ".", count: 15) + "]  50 %")
        #expect(ForecastProgressBar.bar(1) == "[" + String(repeating: "#", count: 30) + "] 100 %")
    }
}
