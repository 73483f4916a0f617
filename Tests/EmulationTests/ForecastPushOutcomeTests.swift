import Foundation
import Testing
@testable import Emulation

/// Issue 29 §1: a forecast's pushes as outcomes that exclude each other — their counts add up to the pushes sent and
/// their shares to 1 — with the figures that overlap them under their own names.
@Suite struct ForecastPushOutcomeTests {
    /// Fleets whose pushes end differently: most delivered, most dropped, most held and coalesced, alert pushes that
    /// expire.
    static let configurations: [(name: String, request: ForecastRequest)] = {
        var quitting = ForecastFixture.ideal
        quitting.forceQuitShare = 1
        var lowPower = ForecastPopulation.defaults
        lowPower.lowPowerModeShare = 0.6
        return [
            ("defaults", ForecastFixture.request(seed: 7, devices: 30, pushes: [ForecastPushSchedule(everyMinutes: 120)])),
            ("ideal", ForecastFixture.request(seed: 2026, devices: 20, population: ForecastFixture.ideal, pushes: [ForecastPushSchedule(everyMinutes: 10)])),
            ("force quit", ForecastFixture.request(seed: 3, devices: 10, population: quitting, pushes: [ForecastPushSchedule(everyMinutes: 60)])),
            ("low power", ForecastFixture.request(seed: 11, devices: 30, population: lowPower, pushes: [ForecastPushSchedule(everyMinutes: 15)])),
            ("alerts that expire", ForecastFixture.request(
                seed: 19, devices: 25, days: 2,
                pushes: [ForecastPushSchedule(atHours: [3, 9, 21], priority: 10, expirationSeconds: 600), ForecastPushSchedule(everyMinutes: 45)])),
        ]
    }()

    /// The share's whole number of ten-thousandths.
    private func units(_ share: Double) -> Int { Int((share * 10_000).rounded()) }

    @Test(arguments: configurations.indices)
    func exclusiveOutcomesAddUpToThePushesSentAndTheirSharesToOne(_ index: Int) throws {
        let (name, request) = Self.configurations[index]
        let report = try Forecast.run(request, threads: 2)
        let pushes = try #require(report.result.pushes)
        let outcomes = try #require(pushes.outcomes, "\(name)")
        let all = ForecastPushOutcome.allCases
        #expect(pushes.sent > 0, "\(name)")
        #expect(all.map { outcomes[$0].count }.reduce(0, +) == pushes.sent, "\(name)")
        #expect(all.map { units(outcomes[$0].share) }.reduce(0, +) == 10_000, "\(name)")
        #expect(abs(all.map { outcomes[$0].share }.reduce(0, +) - 1) < 1e-9, "\(name)")
        for outcome in all {
            let tally = outcomes[outcome]
            // A whole number of ten-thousandths, within one of the exact share.
            #expect(Double(units(tally.share)) / 10_000 == tally.share, "\(name) \(outcome)")
            #expect(abs(tally.share - Double(tally.count) / Double(pushes.sent)) <= 0.0001 + 1e-12, "\(name) \(outcome)")
        }
        // Each device's own counts add up too.
        for row in report.devices {
            let p = try #require(row.pushes)
            #expect(all.map { $0.count(p) }.reduce(0, +) == p.sent, "\(name) device \(row.device)")
        }
    }

    @Test(arguments: configurations.indices)
    func overlappingCountsAreConsistentWithTheOutcomes(_ index: Int) throws {
        let (name, request) = Self.configurations[index]
        let pushes = try #require(try Forecast.run(request, threads: 2).result.pushes)
        let outcomes = try #require(pushes.outcomes)
        let overlapping = try #require(pushes.overlapping)
        let deferred = overlapping.deferredAtLeastOnce.count
        // Delivered later, coalesced and pending were all held first; a dropped push may have been.
        let held = outcomes.deliveredLater.count + outcomes.coalesced.count + outcomes.pending.count
        #expect(held <= deferred && deferred <= held + outcomes.dropped.count && deferred <= pushes.sent, "\(name)")
        #expect(overlapping.delivered.count == outcomes.deliveredAtOnce.count + outcomes.deliveredLater.count, "\(name)")
        #expect(overlapping.deferredAtLeastOnce.share == ForecastNumbers.share(deferred, of: pushes.sent), "\(name)")
        // The flat shares of the first version read from the same tallies.
        #expect(pushes.deliveredAtOnce == outcomes.deliveredAtOnce.share && pushes.deliveredLater == outcomes.deliveredLater.share)
        #expect(pushes.coalesced == outcomes.coalesced.share && pushes.dropped == outcomes.dropped.share)
        #expect(pushes.pending == outcomes.pending.share && pushes.deferred == overlapping.deferredAtLeastOnce.share)
    }

    @Test func withNoPushSentEveryOutcomeAndOverlapIsZero() throws {
        let report = try Forecast.run(Self.configurations[0].request, threads: 2)
        let silent = report.devices.map { row in
            var row = row
            row.pushes = ForecastDevicePushes()
            return row
        }
        let pushes = ForecastPushSummary(rows: silent, delays: [])
        let outcomes = try #require(pushes.outcomes)
        #expect(pushes.sent == 0)
        #expect(ForecastPushOutcome.allCases.allSatisfy { outcomes[$0] == ForecastPushTally(count: 0, share: 0) })
        #expect(pushes.overlapping == ForecastPushOverlaps(deferred: 0, delivered: 0, sent: 0))
        #expect(pushes.overlapping?.deferredAtLeastOnce == ForecastPushTally(count: 0, share: 0))
        #expect(pushes.delaySeconds == nil)
    }

    @Test func largestRemainderSharesAddUpToOneWhereRoundingEachAloneWouldNot() {
        // Thirds: each alone rounds to 0.3333, three of them to 0.9999; the first takes the missing ten-thousandth.
        #expect([1, 1, 1].map { ForecastNumbers.share($0, of: 3) }.reduce(0, +) != 1)
        #expect(ForecastNumbers.exclusiveShares([1, 1, 1], of: 3) == [0.3334, 0.3333, 0.3333])
        // Sixths rounded one by one make 1.0002; by largest remainder (all remainders equal), the first four take one
        // ten-thousandth more than the floor and the last two none.
        #expect((0..<6).map { _ in ForecastNumbers.share(1, of: 6) }.reduce(0, +) > 1.0001)
        #expect(ForecastNumbers.exclusiveShares([1, 1, 1, 1, 1, 1], of: 6) == [0.1667, 0.1667, 0.1667, 0.1667, 0.1666, 0.1666])
        // The larger remainder wins over the order: a third (remainder 1 of 3) and two thirds (remainder 2 of 3).
        #expect(ForecastNumbers.exclusiveShares([1, 2], of: 3) == [0.3333, 0.6667])
        #expect(ForecastNumbers.exclusiveShares([0, 0, 0], of: 0) == [0, 0, 0])
        #expect(ForecastNumbers.exclusiveShares([5, 0], of: 5) == [1, 0])
        // Counts that do not add up to the whole are rounded one by one (no share is forced).
        #expect(ForecastNumbers.exclusiveShares([1, 1], of: 3) == [0.3333, 0.3333])
    }

    @Test func partsMergedCarryTheOutcomesOfTheWholeForecastByteForByte() throws {
        let request = Self.configurations[3].request
        let whole = try Forecast.run(request, threads: 2)
        let merged = try Forecast.merge(try [2, 0, 1].map { try Forecast.runShard(request, shard: $0, of: 3, threads: 2) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(merged.result) == encoder.encode(whole.result))
        #expect(merged.csv() == whole.csv())
        #expect(merged.result.pushes?.outcomes != nil)
        // The same seed, run again: the same bytes.
        #expect(try encoder.encode(Forecast.run(request, threads: 1).result) == encoder.encode(whole.result))
    }

    @Test func theResultsJSONNamesTheOutcomesAndTheOverlapsApart() throws {
        let result = try Forecast.run(Self.configurations[0].request, threads: 2).result
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(try JSONSerialization.jsonObject(with: encoder.encode(result)) as? [String: Any])
        let pushes = try #require(json["pushes"] as? [String: Any])
        let outcomes = try #require(pushes["outcomes"] as? [String: [String: Any]])
        #expect(Set(outcomes.keys) == Set(ForecastPushOutcome.allCases.map(\.rawValue)))
        #expect(outcomes.values.map { $0["count"] as? Int ?? -1 }.reduce(0, +) == pushes["sent"] as? Int)
        let overlapping = try #require(pushes["overlapping"] as? [String: [String: Any]])
        #expect(Set(overlapping.keys) == ["deferredAtLeastOnce", "delivered"])
    }

    @Test func aResultStoredBeforeTheOutcomesStillReads() throws {
        let old = """
            {"sent": 4, "deliveredAtOnce": 0.5, "deferred": 0.25, "deliveredLater": 0.25, "coalesced": 0,
             "dropped": 0.25, "pending": 0}
            """
        let pushes = try JSONDecoder().decode(ForecastPushSummary.self, from: Data(old.utf8))
        #expect(pushes.sent == 4 && pushes.outcomes == nil && pushes.overlapping == nil && pushes.deliveredAtOnce == 0.5)
    }
}
