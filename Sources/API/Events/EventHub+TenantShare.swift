extension EventHub {
    /// The fraction of `maximumStreams` one tenant may hold at most, whatever its absolute share: a half.
    ///
    /// The absolute share (`--max-streams-per-tenant`, 1,024 by default) alone let one tenant take every place of a
    /// small instance (`--max-streams 50`). Half of the instance keeps the other half for every other tenant, while
    /// an installation with one tenant can still open half of `--max-streams` (it raises `--max-streams` for more).
    public static let tenantShareOfMaximumStreams = (numerator: 1, denominator: 2)

    /// The most streams one tenant may hold open: the smaller of `maximumStreamsPerTenant` and half of
    /// `maximumStreams` (rounded up, and at least 1).
    public static func tenantShare(maximumStreams: Int, maximumStreamsPerTenant: Int) -> Int {
        let (numerator, denominator) = tenantShareOfMaximumStreams
        let fraction = (max(1, maximumStreams) * numerator + denominator - 1) / denominator
        return max(1, min(maximumStreamsPerTenant, fraction))
    }
}
