import Service

/// The `RateLimit-Policy` and `RateLimit` fields of draft-ietf-httpapi-ratelimit-headers-11 (structured field
/// lists, RFC 9651), for one policy named `"tenant"`: every request of a tenant takes one unit of its bucket.
enum RateLimitFields {
    /// The policy's name in both fields.
    static let policyName = "tenant"

    /// `"tenant";q=1000;w=1;bgemu-burst=2000`: `q` requests per window of `w` seconds (the sustained rate;
    /// a rate under one a second gets a longer window, rounded so that `q` never says more than the rate),
    /// and the bucket's size as a vendor parameter (draft §3.1: service-specific parameters are prefixed).
    static func policy(_ policy: RateLimitPolicy) -> String {
        let window = policy.rate >= 1 ? 1 : Int((1 / policy.rate).rounded(.up))
        let quota = max(1, Int((policy.rate * Double(window)).rounded(.down)))
        return "\"\(policyName)\";q=\(quota);w=\(window);bgemu-burst=\(policy.burst)"
    }

    /// `"tenant";r=0;t=2`: `remaining` whole requests available now; `reset`, when given, the seconds in which
    /// no more than that may be used (on a refusal: until a token is back, the same as `Retry-After`, draft §6).
    static func limit(remaining: Int, reset: Int?) -> String {
        guard let reset else { return "\"\(policyName)\";r=\(remaining)" }
        return "\"\(policyName)\";r=\(remaining);t=\(reset)"
    }
}
