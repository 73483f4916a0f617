/// The five fates a push sent to a device can have, which exclude each other: every push sent after the install
/// has exactly one of them when the forecast ends (`ForecastDevicePushes`: they add up to `sent`).
public enum ForecastPushOutcome: String, Sendable, CaseIterable {
    /// Delivered when received (woken, or to the app in the foreground).
    case deliveredAtOnce
    /// First held by the power-aware policy (R30), then delivered.
    case deliveredLater
    /// Held, then replaced by a newer push (R30).
    case coalesced
    /// Never delivered (force quit, a switch off, the mode missing, expired, …), held first or not.
    case dropped
    /// Still held when the forecast ended.
    case pending

    /// How many of `pushes` had this fate.
    func count(_ pushes: ForecastDevicePushes) -> Int {
        switch self {
        case .deliveredAtOnce: pushes.deliveredAtOnce
        case .deliveredLater: pushes.deliveredLater
        case .coalesced: pushes.coalesced
        case .dropped: pushes.dropped
        case .pending: pushes.pending
        }
    }
}

/// A number of pushes and its share of the pushes sent.
public struct ForecastPushTally: Sendable, Equatable, Codable {
    /// Pushes, over the fleet.
    public var count: Int
    /// `count` ÷ the pushes sent, to 4 decimals; 0 when none was sent.
    public var share: Double

    public init(count: Int, share: Double) {
        self.count = count
        self.share = share
    }
}

/// What became of the fleet's pushes, as outcomes that exclude each other: the counts add up to the pushes sent,
/// exactly, and the shares to 1, exactly at their 4 decimals (all 0 when none was sent).
///
/// The shares are the counts' own, rounded by largest remainder (``ForecastNumbers/exclusiveShares(_:of:)``): each
/// is a whole number of ten-thousandths, and those add up to 10,000.
public struct ForecastPushOutcomes: Sendable, Equatable, Codable {
    public var deliveredAtOnce: ForecastPushTally
    public var deliveredLater: ForecastPushTally
    public var coalesced: ForecastPushTally
    public var dropped: ForecastPushTally
    public var pending: ForecastPushTally

    /// The outcomes of `counts` (in ``ForecastPushOutcome/allCases`` order) of `sent` pushes.
    init(counts: [ForecastPushOutcome: Int], sent: Int) {
        let order = ForecastPushOutcome.allCases
        let shares = ForecastNumbers.exclusiveShares(order.map { counts[$0] ?? 0 }, of: sent)
        var tallies: [ForecastPushOutcome: ForecastPushTally] = [:]
        for (outcome, share) in zip(order, shares) {
            tallies[outcome] = ForecastPushTally(count: counts[outcome] ?? 0, share: share)
        }
        deliveredAtOnce = tallies[.deliveredAtOnce]!
        deliveredLater = tallies[.deliveredLater]!
        coalesced = tallies[.coalesced]!
        dropped = tallies[.dropped]!
        pending = tallies[.pending]!
    }

    /// The tally of one outcome.
    public subscript(_ outcome: ForecastPushOutcome) -> ForecastPushTally {
        switch outcome {
        case .deliveredAtOnce: deliveredAtOnce
        case .deliveredLater: deliveredLater
        case .coalesced: coalesced
        case .dropped: dropped
        case .pending: pending
        }
    }
}

/// Figures over the pushes sent that overlap the exclusive outcomes, each under its own name: they are not to be
/// added to the outcomes, nor to each other.
public struct ForecastPushOverlaps: Sendable, Equatable, Codable {
    /// Held by the power-aware policy (R30) when received, whatever became of them: the pushes delivered later,
    /// coalesced or pending, and those dropped after being held.
    public var deferredAtLeastOnce: ForecastPushTally
    /// Delivered, at once or later: `deliveredAtOnce` + `deliveredLater`.
    public var delivered: ForecastPushTally

    init(deferred: Int, delivered: Int, sent: Int) {
        deferredAtLeastOnce = ForecastPushTally(count: deferred, share: ForecastNumbers.share(deferred, of: sent))
        self.delivered = ForecastPushTally(count: delivered, share: ForecastNumbers.share(delivered, of: sent))
    }
}

extension ForecastNumbers {
    /// The shares of `counts` of `whole` to 4 decimals, rounded so that they add up to 1 exactly: each is a whole
    /// number of ten-thousandths, the floor of its exact value, and the ten-thousandths still missing go one each to
    /// the largest remainders (a tie to the earlier count). All 0 when `whole` is 0; rounded one by one
    /// (``share(_:of:)``) when the counts do not add up to `whole`.
    static func exclusiveShares(_ counts: [Int], of whole: Int) -> [Double] {
        guard whole > 0 else { return counts.map { _ in 0 } }
        guard counts.reduce(0, +) == whole, counts.allSatisfy({ $0 >= 0 }) else {
            return counts.map { share($0, of: whole) }
        }
        let units = 10_000
        var parts = counts.map { $0 * units / whole }
        let remainders = counts.map { $0 * units % whole }
        let missing = units - parts.reduce(0, +)
        let largest = remainders.indices.sorted { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }
        for index in largest.prefix(missing) { parts[index] += 1 }
        return parts.map { Double($0) / Double(units) }
    }
}
