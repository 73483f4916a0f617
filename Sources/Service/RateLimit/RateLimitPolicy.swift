/// How many requests a tenant may make: `rate` a second sustained, and up to `burst` at once after a pause
/// (the size of its token bucket).
public struct RateLimitPolicy: Sendable, Equatable {
    /// Requests a second, sustained; more than 0.
    public let rate: Double
    /// The most requests at once; at least 1.
    public let burst: Int

    /// nil when either is 0 (or less): no limit.
    public init?(rate: Double, burst: Int) {
        guard rate > 0, burst >= 1, rate.isFinite else { return nil }
        self.rate = rate
        self.burst = burst
    }

    /// The defaults of `serve`: 1,000 requests a second, bursts of 2,000.
    public static let standard = RateLimitPolicy(rate: 1000, burst: 2000)!
}
