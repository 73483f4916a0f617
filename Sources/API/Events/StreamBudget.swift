import Glibc
import Synchronization

/// The bytes a tenant's event streams may be sent, together, per second: a token bucket in bytes, shared by all
/// the tenant's streams. Past it a stream does not grow a buffer: it catches up from the event log once the budget
/// allows, like a stream whose client reads slowly. So a tenant holding a thousand streams of a fast event flow
/// costs the service a bounded amount of sending, and the other tenants keep their share of the CPU.
final class StreamBudget: Sendable {
    /// Bytes a second; the bucket holds one second of them.
    let rate: Double
    private let clock: @Sendable () -> UInt64
    private struct State {
        var tokens: Double
        var updated: UInt64
    }
    private let state: Mutex<State>

    /// - Parameters:
    ///   - bytesPerSecond: the rate, at least 1.
    ///   - clock: nanoseconds of a monotonic clock (injectable for tests).
    init(bytesPerSecond: Int, clock: @escaping @Sendable () -> UInt64 = StreamBudget.monotonicNanoseconds) {
        rate = Double(max(1, bytesPerSecond))
        self.clock = clock
        state = Mutex(State(tokens: Double(max(1, bytesPerSecond)), updated: clock()))
    }

    /// Takes `bytes` if the budget holds them now. An event larger than the whole bucket goes when it is full,
    /// so that no event waits forever.
    func take(_ bytes: Int) -> Bool {
        let now = clock()
        return state.withLock { state in
            Self.refill(&state, rate: rate, now: now)
            let needed = min(Double(bytes), rate)
            guard state.tokens >= needed else { return false }
            state.tokens -= Double(bytes)
            return true
        }
    }

    /// The bytes that could be taken now.
    var available: Int {
        let now = clock()
        return state.withLock { state in
            Self.refill(&state, rate: rate, now: now)
            return Int(max(0, state.tokens))
        }
    }

    /// How long until `bytes` can be taken (zero when they can now).
    func wait(for bytes: Int) -> Duration {
        let now = clock()
        let missing = state.withLock { state -> Double in
            Self.refill(&state, rate: rate, now: now)
            return min(Double(bytes), rate) - state.tokens
        }
        guard missing > 0 else { return .zero }
        return .nanoseconds(Int64((missing / rate * 1e9).rounded(.up)))
    }

    private static func refill(_ state: inout State, rate: Double, now: UInt64) {
        guard now > state.updated else { return }
        state.tokens = min(rate, state.tokens + Double(now - state.updated) / 1e9 * rate)
        state.updated = now
    }

    @Sendable static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
