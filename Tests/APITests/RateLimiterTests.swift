import Synchronization
import Testing
@testable import API
@testable import Service

/// A monotonic clock that only moves when a test moves it.
final class ManualClock: Sendable {
    private let nanoseconds = Atomic<UInt64>(1_000_000_000)
    var now: UInt64 { nanoseconds.load(ordering: .relaxed) }
    func advance(seconds: Double) { nanoseconds.add(UInt64(seconds * 1e9), ordering: .relaxed) }
    func rewind(seconds: Double) { nanoseconds.subtract(UInt64(seconds * 1e9), ordering: .relaxed) }
    var function: @Sendable () -> UInt64 { { self.now } }
}

/// The token bucket behind `429 rateLimited`, driven by a clock the test moves (no sleeping).
@Suite struct RateLimiterTests {
    private func limiter(
        rate: Double, burst: Int, capacity: Int = 100_000, delay: Duration = .zero
    ) -> (RateLimiter, ManualClock) {
        let clock = ManualClock()
        let policy = RateLimitPolicy(rate: rate, burst: burst)!
        return (RateLimiter(policy: policy, capacity: capacity, maximumDelay: delay, clock: clock.function), clock)
    }

    @Test func aRequestJustOverTheRateIsPacedToTheNextTokenThenRefusedPastTheDelay() {
        let (limiter, clock) = limiter(rate: 10, burst: 2, delay: .milliseconds(250))
        #expect(limiter.admit("a") == .allowed(remaining: 1))
        #expect(limiter.admit("a") == .allowed(remaining: 0))
        // Each takes the token after the one the previous took: 100, 200 ms; the fourth's would come at 300 ms.
        #expect(limiter.admit("a") == .delayed(.milliseconds(100)))
        #expect(limiter.admit("a") == .delayed(.milliseconds(200)))
        #expect(limiter.admit("a") == .refused(retryAfter: 1))
        #expect(limiter.wouldRefuse("a"), "judged from a head, it would be refused too")
        #expect(limiter.admit("b") == .allowed(remaining: 1), "another client's bucket is its own")
        // The reserved tokens are spent when they come: none is there for anyone else meanwhile.
        clock.advance(seconds: 0.2)
        #expect(limiter.admit("a") == .delayed(.milliseconds(100)))
        #expect(!limiter.wouldRefuse("a"))
        clock.advance(seconds: 0.1)
        // Paced at the rate, one after the other: sustained, a client asking ten times too fast gets the rate.
        var served = 0
        for _ in 0..<1000 {
            clock.advance(seconds: 0.01)
            switch limiter.admit("a") {
            case .allowed, .delayed: served += 1
            case .refused: break
            }
        }
        // 10 a second for 10 s, and the two or three tokens the client is in debt when the loop ends.
        #expect((100...103).contains(served), "\(served)")
    }

    @Test func withoutADelayNothingIsPaced() {
        let (limiter, _) = limiter(rate: 1000, burst: 1)
        #expect(limiter.admit("a") == .allowed(remaining: 0))
        #expect(limiter.admit("a") == .refused(retryAfter: 1))
    }

    @Test func aNewClientHasItsWholeBurstThenIsRefused() {
        let (limiter, _) = limiter(rate: 1, burst: 3)
        #expect(limiter.admit("a") == .allowed(remaining: 2))
        #expect(limiter.admit("a") == .allowed(remaining: 1))
        #expect(limiter.admit("a") == .allowed(remaining: 0))
        #expect(limiter.admit("a") == .refused(retryAfter: 1))
        #expect(limiter.refusals == 1)
    }

    @Test func theBucketRefillsAtTheRate() {
        let (limiter, clock) = limiter(rate: 10, burst: 1)
        #expect(limiter.admit("a") == .allowed(remaining: 0))
        clock.advance(seconds: 0.05)
        #expect(limiter.admit("a") == .refused(retryAfter: 1), "half a token is no token")
        clock.advance(seconds: 0.05)
        #expect(limiter.admit("a") == .allowed(remaining: 0))
        // Sustained: 10 a second, for 5 seconds, at a steady pace.
        var allowed = 0
        for _ in 0..<100 {
            clock.advance(seconds: 0.05)
            if case .allowed = limiter.admit("a") { allowed += 1 }
        }
        #expect(allowed == 50)
    }

    @Test func aLongPauseEarnsNoMoreThanTheBurst() {
        let (limiter, clock) = limiter(rate: 100, burst: 5)
        for _ in 0..<5 { _ = limiter.admit("a") }
        clock.advance(seconds: 3600)
        var allowed = 0
        while case .allowed = limiter.admit("a") { allowed += 1 }
        #expect(allowed == 5)
    }

    @Test func retryAfterIsTheWholeSecondsUntilAToken() {
        let (limiter, clock) = limiter(rate: 0.25, burst: 1)
        #expect(limiter.admit("a") == .allowed(remaining: 0))
        #expect(limiter.admit("a") == .refused(retryAfter: 4))
        clock.advance(seconds: 1)
        #expect(limiter.admit("a") == .refused(retryAfter: 3))
        clock.advance(seconds: 2.5)
        #expect(limiter.admit("a") == .refused(retryAfter: 1), "half a second left is still 1: never 0")
        clock.advance(seconds: 0.5)
        #expect(limiter.admit("a") == .allowed(remaining: 0))
        #expect(limiter.refusals == 3)
    }

    @Test func oneClientsEmptyBucketLimitsNoOther() {
        let (limiter, _) = limiter(rate: 1, burst: 2)
        _ = limiter.admit("a")
        _ = limiter.admit("a")
        #expect(limiter.admit("a") == .refused(retryAfter: 1))
        #expect(limiter.admit("b") == .allowed(remaining: 1))
    }

    @Test func judgingFromTheHeadTakesNothingAndRemembersTheRefusal() {
        let (limiter, clock) = limiter(rate: 1, burst: 1)
        #expect(!limiter.wouldRefuse("a"), "an unknown client has a full bucket")
        #expect(limiter.admit("a") == .allowed(remaining: 0))
        #expect(!limiter.refusedRecently("a"))
        #expect(limiter.wouldRefuse("a"))
        #expect(limiter.refusedRecently("a"))
        clock.advance(seconds: 1)
        #expect(!limiter.wouldRefuse("a"), "a token is back")
        #expect(!limiter.refusedRecently("a"), "the refusal was a second ago")
        #expect(limiter.admit("a") == .allowed(remaining: 0), "peeking took nothing")
    }

    @Test func aClockGoingBackwardsEarnsNothing() {
        let (limiter, clock) = limiter(rate: 1, burst: 1)
        _ = limiter.admit("a")
        clock.rewind(seconds: 0.5)
        #expect(limiter.admit("a") == .refused(retryAfter: 1))
        clock.advance(seconds: 1)
        #expect(limiter.admit("a") == .refused(retryAfter: 1), "time already counted is not counted again")
        clock.advance(seconds: 0.5)
        #expect(limiter.admit("a") == .allowed(remaining: 0))
    }

    @Test func memoryIsBoundedByForgettingFullBuckets() {
        let (limiter, clock) = limiter(rate: 1, burst: 2, capacity: 3)
        for client in ["a", "b", "c"] { _ = limiter.admit(client) }
        #expect(limiter.bucketCount == 3)
        clock.advance(seconds: 1)   // a, b and c are full again: forgettable
        _ = limiter.admit("a")      // a is in use now
        _ = limiter.admit("d")
        #expect(limiter.bucketCount == 2, "b and c were full, so forgotten; a and d remain")
        for client in (0..<50).map({ "t\($0)" }) { _ = limiter.admit(client) }
        #expect(limiter.bucketCount <= 3)
    }

    @Test func zeroTurnsTheLimitOff() {
        #expect(RateLimitPolicy(rate: 0, burst: 10) == nil)
        #expect(RateLimitPolicy(rate: 10, burst: 0) == nil)
        #expect(RateLimitPolicy(rate: 10, burst: 1) != nil)
    }

    @Test func fieldsFollowTheHTTPAPIDraft() {
        #expect(RateLimitFields.policy(.standard) == #""tenant";q=1000;w=1;bgemu-burst=2000"#)
        #expect(RateLimitFields.policy(RateLimitPolicy(rate: 0.25, burst: 1)!) == #""tenant";q=1;w=4;bgemu-burst=1"#)
        #expect(RateLimitFields.policy(RateLimitPolicy(rate: 2.5, burst: 3)!) == #""tenant";q=2;w=1;bgemu-burst=3"#)
        #expect(RateLimitFields.limit(remaining: 0, reset: 2) == #""tenant";r=0;t=2"#)
        #expect(RateLimitFields.limit(remaining: 7, reset: nil) == #""tenant";r=7"#)
    }
}
