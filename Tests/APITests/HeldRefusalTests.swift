import Dispatch
import Foundation
import Glibc
import Logging
import Synchronization
import Testing
@testable import API
@testable import Service
@testable import HTTPServer

/// Refusals held until the client may retry (`RateLimitMiddleware`): a tenant that asks again at once, without
/// waiting, is answered once per hold on each connection, not as fast as the server can refuse; another tenant is
/// answered at once meanwhile.
@Suite struct HeldRefusalTests {
    /// The status of a GET of `target` with `key` on a keep-alive connection (its whole answer read).
    private static func status(of target: String, key: String, on connection: HTTPTestConnection) throws -> Int {
        try connection.request("GET", target, headers: [("Authorization", "Bearer \(key)")])
        return try connection.readResponse().status
    }

    @Test func aTenantAskingAgainAtOnceIsAnsweredOncePerHoldWhileAnotherTenantIsServedAtOnce() throws {
        let hold = Duration.milliseconds(200)
        let limiter = RateLimiter(policy: RateLimitPolicy(rate: 0.01, burst: 10)!, maximumHold: hold)
        let api = try APIHarness(rateLimiter: limiter)
        let flooder = try api.makeTenant("flooder").key, quiet = try api.makeTenant("quiet").key
        try api.withServer(eventLoops: 1) { port in
            // The flooder: 4 connections, each asking again the moment it is answered, for one second.
            let statuses = Mutex<[Int]>([])
            let group = DispatchGroup()
            let stop = ContinuousClock.now + .seconds(1)
            for _ in 0..<4 {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    guard let connection = try? HTTPTestConnection(port: port, timeout: .seconds(10)) else { return }
                    while ContinuousClock.now < stop {
                        guard let status = try? Self.status(of: "/v1/devices", key: flooder, on: connection) else { return }
                        statuses.withLock { $0.append(status) }
                    }
                }
            }
            // Meanwhile, once the flooder's burst is spent and its refusals are held, the quiet tenant is answered,
            // every time (its own bucket; a held answer of the flooder's holds no loop).
            let spent = ContinuousClock.now + .seconds(30)
            while statuses.withLock({ $0.count }) < 10, ContinuousClock.now < spent { usleep(1_000) }
            let neighbour = try HTTPTestConnection(port: port, timeout: .seconds(10))
            for _ in 0..<5 { #expect(try Self.status(of: "/v1/devices", key: quiet, on: neighbour) == 200) }
            group.wait()
            let answered = statuses.withLock { $0 }
            // Ten from the burst, then one refusal per connection per 200 ms hold: about 10 + 4 × 5. Without the
            // hold, the same second held thousands of refusals.
            #expect(answered.filter { $0 == 200 }.count == 10)
            #expect(answered.filter { $0 == 429 }.count <= 4 * 7, "\(answered.count) answers in one second")
            #expect(answered.filter { $0 == 429 }.count >= 4 * 3)
        }
    }
}
