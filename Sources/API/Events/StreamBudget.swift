import Dispatch
import Service
import Synchronization

/// The bytes a tenant's event streams may be sent, together, per second: a token bucket of bytes (the rate
/// limiter's ``TokenBucket``, one second of bytes deep), shared by all the tenant's streams. Past it a stream does
/// not grow a buffer: it catches up from the event log once the budget allows, like a stream whose client reads
/// slowly. So a tenant holding a thousand streams of a fast event flow costs the service a bounded amount of
/// sending, and the other tenants keep their share of the CPU.
final class StreamBudget: Sendable {
    private let policy: RateLimitPolicy
    private let clock: @Sendable () -> UInt64
    private let bucket: Mutex<TokenBucket>

    /// - Parameters:
    ///   - bytesPerSecond: the rate, at least 1.
    ///   - clock: monotonic nanoseconds (injectable for tests); the system's uptime clock by default.
    init(bytesPerSecond: Int, clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds }) {
        let bytes = max(1, bytesPerSecond)
        policy = RateLimitPolicy(rate: Double(bytes), burst: bytes)!
        self.clock = clock
        bucket = Mutex(TokenBucket(policy: policy, now: clock()))
    }

    /// Bytes a second.
    var rate: Double { policy.rate }

    /// Takes `bytes` if the budget holds them now. An event larger than the whole bucket goes when it is full,
    /// so that no event waits forever.
    func take(_ bytes: Int) -> Bool {
        let now = clock()
        return bucket.withLock { $0.take(Double(bytes), policy, now: now) }
    }

    /// The bytes that could be taken now.
    var available: Int {
        let now = clock()
        return bucket.withLock { bucket in
            bucket.refill(policy, now: now)
            return Int(max(0, bucket.tokens))
        }
    }

    /// Replays of the tenant's streams waiting for the budget to refill.
    private let waiting = Atomic<Int>(0)

    /// How long a replay should wait before it reads `bytes` more: long enough for its share of the refill when
    /// other replays of the tenant wait too (zero when the budget holds them now). Waiting only for `bytes`, a
    /// thousand streams woke together at every refill, one got it, and the others read a page for nothing.
    func replayWait(for bytes: Int) -> Duration {
        let alone = wait(for: bytes)
        guard alone > .zero else { return .zero }
        return max(alone, wait(for: bytes * max(1, waiting.load(ordering: .relaxed))))
    }

    /// Counts a replay as waiting until `resume` is called.
    func startWaiting() -> @Sendable () -> Void {
        waiting.add(1, ordering: .relaxed)
        return { [self] in _ = waiting.subtract(1, ordering: .relaxed) }
    }

    /// How long until `bytes` can be taken (zero when they can now).
    func wait(for bytes: Int) -> Duration {
        let now = clock()
        let seconds = bucket.withLock { $0.secondsUntil(Double(bytes), policy, now: now) }
        return seconds > 0 ? .nanoseconds(Int64((seconds * 1e9).rounded(.up))) : .zero
    }
}
