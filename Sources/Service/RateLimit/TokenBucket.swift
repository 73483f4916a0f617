/// One client's token bucket: it holds at most `burst` tokens, gains `rate` tokens a second, and a request
/// takes one. A value type with no clock of its own: every operation is given the time, so a test drives it
/// without sleeping.
public struct TokenBucket: Sendable, Equatable {
    /// Tokens in the bucket when it was last brought up to date; fractional while it refills.
    public private(set) var tokens: Double
    /// When `tokens` was true, in nanoseconds of the limiter's clock.
    private(set) var updated: UInt64

    /// A full bucket at `now`: a client that has not been seen starts with its whole burst.
    public init(policy: RateLimitPolicy, now: UInt64) {
        tokens = Double(policy.burst)
        updated = now
    }

    /// Adds the tokens earned since the last update, up to the burst. A clock that went backwards adds none.
    public mutating func refill(_ policy: RateLimitPolicy, now: UInt64) {
        guard now > updated else { return }
        let earned = Double(now - updated) / 1e9 * policy.rate
        tokens = min(Double(policy.burst), tokens + earned)
        updated = now
    }

    /// Whether a request may go now; when it may, its token is taken.
    mutating func take(_ policy: RateLimitPolicy, now: UInt64) -> Bool { take(1, policy, now: now) }

    /// Reserves the next token when it comes within `seconds`: the bucket goes below one (below zero for a second
    /// reservation, and so on) and refills from there. Answers the seconds until the reserved token, or nil, taking
    /// nothing, when it comes later.
    mutating func reserve(_ policy: RateLimitPolicy, now: UInt64, within seconds: Double) -> Double? {
        let wait = secondsUntil(1, policy, now: now)
        guard wait <= seconds else { return nil }
        refill(policy, now: now)
        tokens -= 1
        return wait
    }

    /// Takes `amount` tokens when the bucket holds them, or, for an amount larger than the whole bucket, when it
    /// is full (so that nothing waits forever); the bucket may then go below zero and refills from there.
    public mutating func take(_ amount: Double, _ policy: RateLimitPolicy, now: UInt64) -> Bool {
        refill(policy, now: now)
        guard tokens >= min(amount, Double(policy.burst)) else { return false }
        tokens -= amount
        return true
    }

    /// Seconds until `take(amount…)` would succeed (0 when it would now).
    public func secondsUntil(_ amount: Double, _ policy: RateLimitPolicy, now: UInt64) -> Double {
        var copy = self
        copy.refill(policy, now: now)
        return max(0, min(amount, Double(policy.burst)) - copy.tokens) / policy.rate
    }

    /// Whole tokens left: what the `RateLimit` field calls the available quota.
    var remaining: Int { Int(tokens.rounded(.down)) }

    /// Whole seconds, at least 1, until the bucket holds a token again (`Retry-After`, RFC 9110 §10.2.3).
    func secondsUntilNextToken(_ policy: RateLimitPolicy) -> Int {
        let missing = max(0, 1 - tokens)
        return max(1, Int((missing / policy.rate).rounded(.up)))
    }

    /// Whether the bucket is full at `now`: then it is the same as no bucket, and may be forgotten.
    func isFull(_ policy: RateLimitPolicy, now: UInt64) -> Bool {
        var copy = self
        copy.refill(policy, now: now)
        return copy.tokens >= Double(policy.burst)
    }
}
