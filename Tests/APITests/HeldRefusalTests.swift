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
    /// One keep-alive connection: a request, then its whole answer (head and `Content-Length` body); the status.
    final class KeepAliveConnection {
        let fd: Int32
        private var buffered: [UInt8] = []

        init(port: Int) throws { fd = try LoopbackSocket.connect(port: port, receiveTimeout: 10) }
        deinit { close(fd) }

        func status(of target: String, key: String) throws -> Int {
            let request = Array("GET \(target) HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(key)\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var chunk = [UInt8](repeating: 0, count: 8192)
            while true {
                if let end = buffered.firstRange(of: Array("\r\n\r\n".utf8)) {
                    let head = String(decoding: buffered[..<end.lowerBound], as: UTF8.self)
                    let length = head.split(separator: "\r\n")
                        .first { $0.lowercased().hasPrefix("content-length:") }
                        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                    if buffered.count >= end.upperBound + length {
                        buffered.removeFirst(end.upperBound + length)
                        return Int(head.dropFirst("HTTP/1.1 ".count).prefix(3)) ?? 0
                    }
                }
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { throw POSIXError(.ECONNRESET) }
                buffered += chunk[..<count]
            }
        }
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
                    guard let connection = try? KeepAliveConnection(port: port) else { return }
                    while ContinuousClock.now < stop {
                        guard let status = try? connection.status(of: "/v1/devices", key: flooder) else { return }
                        statuses.withLock { $0.append(status) }
                    }
                }
            }
            // Meanwhile, once the flooder's burst is spent and its refusals are held, the quiet tenant is answered,
            // every time (its own bucket; a held answer of the flooder's holds no loop).
            let spent = ContinuousClock.now + .seconds(30)
            while statuses.withLock({ $0.count }) < 10, ContinuousClock.now < spent { usleep(1_000) }
            let neighbour = try KeepAliveConnection(port: port)
            for _ in 0..<5 { #expect(try neighbour.status(of: "/v1/devices", key: quiet) == 200) }
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
