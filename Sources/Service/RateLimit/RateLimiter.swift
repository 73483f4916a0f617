import Dispatch
import Locking
import Synchronization

/// Token buckets by client (a tenant's id): each tenant gets `policy.rate` requests a second and bursts of
/// `policy.burst`, and one tenant's bucket running dry limits no other.
///
/// Memory is bounded: a bucket that has refilled is the same as none, so when the table reaches `capacity`
/// the full buckets are forgotten (and if every one is in use, all are: the clients start again with a full
/// burst, which errs on the side of serving). The clock is monotonic nanoseconds and injectable, so tests
/// move time instead of sleeping.
public final class RateLimiter: Sendable {
    /// What a client gets for one request.
    public enum Decision: Sendable, Equatable {
        /// The request may go; `remaining` whole tokens are left.
        case allowed(remaining: Int)
        /// The request may go, but its answer waits this long: the token it took comes then (see `maximumDelay`).
        case delayed(Duration)
        /// Refused; a token is back in `retryAfter` whole seconds (at least 1).
        case refused(retryAfter: Int)
    }

    public let policy: RateLimitPolicy
    /// Most buckets kept at once.
    public let capacity: Int
    /// The longest a refusal is held before it is sent (see ``RateLimitMiddleware``); zero sends refusals at once.
    public let maximumHold: Duration
    /// The longest a request over the rate is paced rather than refused: it takes the token that comes next (the
    /// bucket goes into debt) and its answer is held until then, so that a client asking faster than its rate
    /// is slowed to it, one request after the other, instead of taking the server in bursts. Zero paces none.
    public let maximumDelay: Duration
    private let delaySeconds: Double
    private let clock: @Sendable () -> UInt64
    private let table = PlainLock<[String: Entry]>([:])
    private let refusalCount = Atomic<Int>(0)

    /// A bucket and when it last refused a request (see `refusedRecently`).
    private struct Entry {
        var bucket: TokenBucket
        var lastRefusal: UInt64?
    }

    /// - Parameters:
    ///   - maximumHold: the longest a refusal is held before it is sent (one second by default).
    ///   - maximumDelay: the longest a request over the rate is paced rather than refused (none by default).
    ///   - clock: monotonic nanoseconds; the system's uptime clock by default.
    public init(
        policy: RateLimitPolicy, capacity: Int = 100_000, maximumHold: Duration = .seconds(1),
        maximumDelay: Duration = .zero, clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }
    ) {
        self.policy = policy
        self.capacity = max(1, capacity)
        self.maximumHold = max(.zero, maximumHold)
        self.maximumDelay = max(.zero, maximumDelay)
        delaySeconds = Double(self.maximumDelay.components.seconds) + Double(self.maximumDelay.components.attoseconds) / 1e18
        self.clock = clock
    }

    /// Requests refused since the limiter was made (for metrics).
    public var refusals: Int { refusalCount.load(ordering: .relaxed) }

    /// How many buckets are kept now.
    var bucketCount: Int { table.withLock { $0.count } }

    /// Takes a token for one request of `client`, or reserves the next one when it comes within `maximumDelay`,
    /// or refuses the request.
    public func admit(_ client: String) -> Decision {
        let now = clock()
        let decision = table.withLock { table -> Decision in
            var entry = table[client] ?? Self.newEntry(policy, now: now, in: &table, capacity: capacity)
            defer { table[client] = entry }
            if entry.bucket.take(policy, now: now) { return .allowed(remaining: entry.bucket.remaining) }
            if delaySeconds > 0, let wait = entry.bucket.reserve(policy, now: now, within: delaySeconds) {
                return .delayed(.nanoseconds(Int64((wait * 1e9).rounded(.up))))
            }
            entry.lastRefusal = now
            return .refused(retryAfter: entry.bucket.secondsUntilNextToken(policy))
        }
        if case .refused = decision { refusalCount.add(1, ordering: .relaxed) }
        return decision
    }

    /// Whether a request of `client` would be refused now (not even paced), taking nothing; a refusal is remembered (see
    /// `refusedRecently`). For judging a request from its head, before its body is read.
    public func wouldRefuse(_ client: String) -> Bool {
        let now = clock()
        return table.withLock { table in
            // No token now, and none within the delay a request may be paced by.
            guard var entry = table[client], entry.bucket.secondsUntil(1, policy, now: now) > delaySeconds
            else { return false }
            entry.lastRefusal = now
            table[client] = entry
            return true
        }
    }

    /// Whether `client` was refused within the last second: a request whose head was judged refused, and
    /// whose answer is being made from that head, is refused again even if a token came back meanwhile.
    public func refusedRecently(_ client: String) -> Bool {
        let now = clock()
        return table.withLock { table in
            guard let refused = table[client]?.lastRefusal else { return false }
            return now >= refused && now - refused < 1_000_000_000
        }
    }

    /// Counts a refusal made without `admit` (see `refusedRecently`); answers the seconds until a token.
    public func refuse(_ client: String) -> Int {
        let now = clock()
        refusalCount.add(1, ordering: .relaxed)
        return table.withLock { table in
            var entry = table[client] ?? Self.newEntry(policy, now: now, in: &table, capacity: capacity)
            entry.bucket.refill(policy, now: now)
            entry.lastRefusal = now
            table[client] = entry
            return entry.bucket.secondsUntilNextToken(policy)
        }
    }

    /// A full bucket for a new client, room made for it first.
    private static func newEntry(
        _ policy: RateLimitPolicy, now: UInt64, in table: inout [String: Entry], capacity: Int
    ) -> Entry {
        if table.count >= capacity {
            table = table.filter { !$0.value.bucket.isFull(policy, now: now) }
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
        }
        return Entry(bucket: TokenBucket(policy: policy, now: now))
    }
}
