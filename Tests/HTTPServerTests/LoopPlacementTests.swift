import CSystem
import Foundation
import Testing
@testable import HTTPServer

/// `LoopPlacement.perProcessor`: with a loop per processor, each loop is bound to its own, a connection is served
/// by the loop of the processor its client sends from, and follows the client when it moves.
@Suite struct LoopPlacementTests {
    /// The processors this process may run on (the tests that bind need two or more, and not a crowd).
    static let allowed = ProcessorCount.allowed
    static let canBind = (2...16).contains(allowed.count)

    @Test func oneLoopPerAllowedProcessorBindsEachLoopToItsOwn() {
        let binding = LoopBinding(placement: .perProcessor, loopCount: 2, allowed: [4, 6])
        #expect(binding.isBound)
        #expect(binding.processors == [4, 6])
        #expect(binding.processor(ofLoop: 1) == 6)
        #expect(binding.loop(onProcessor: 6) == 1)
        #expect(binding.loop(onProcessor: 4) == 0)
        #expect(binding.loop(onProcessor: 5) == nil)  // a processor the process may not use has no loop
    }

    @Test func anyOtherLoopCountOrSharedPlacementLeavesTheLoopsUnbound() {
        #expect(!LoopBinding(placement: .perProcessor, loopCount: 1, allowed: [0, 1]).isBound)
        #expect(!LoopBinding(placement: .perProcessor, loopCount: 3, allowed: [0, 1]).isBound)
        #expect(!LoopBinding(placement: .perProcessor, loopCount: 1, allowed: [0]).isBound)
        #expect(!LoopBinding(placement: .shared, loopCount: 2, allowed: [0, 1]).isBound)
        #expect(LoopBinding(placement: .shared, loopCount: 2, allowed: [0, 1]).processor(ofLoop: 0) == nil)
    }

    @Test func aThreadBoundToOneProcessorCountsOneAvailable() throws {
        guard let cpu = Self.allowed.last else { throw PlacementTestError.noProcessor }
        let (allowed, available) = try onThread(boundTo: cpu) { (ProcessorCount.allowed, ProcessorCount.available) }
        #expect(allowed == [cpu])
        #expect(available == 1)
    }

    @Test(.enabled(if: canBind)) func eachLoopRunsOnItsProcessorAndServesTheClientsSendingFromIt() throws {
        let server = try placedServer()
        defer { server.stop() }
        #expect(server.server.boundProcessors == Self.allowed)
        let port = server.port
        // From the last processor first: dealt in turn, its connection would go to loop 0.
        for (loop, cpu) in Self.allowed.enumerated().reversed() {
            let answers = try onThread(boundTo: cpu) {
                let client = try HTTPTestConnection(port: port)
                return try (0..<3).map { _ in try client.served() }
            }
            for answer in answers {
                #expect(answer.cpu == cpu, "a request from processor \(cpu) was answered on \(answer.cpu)")
                #expect(answer.loop == loop, "a connection from processor \(cpu) went to loop \(answer.loop)")
            }
        }
    }

    @Test(.enabled(if: canBind)) func aConnectionFollowsItsClientToAnotherProcessor() throws {
        let server = try placedServer()
        defer { server.stop() }
        let (first, second) = (Self.allowed[0], Self.allowed[1])
        let (port, http) = (server.port, server.server)
        let (before, after, statistics) = try onThread(boundTo: first) {
            let client = try HTTPTestConnection(port: port)
            let before = try client.served()
            // The client moves; its connection is looked at again within `readsPerPlacementCheck` reads.
            guard csystem_bind_thread(Int32(second)) == 0 else { throw PlacementTestError.cannotBind(second) }
            var answers: [Served] = []
            for _ in 0..<Int(EventLoop.readsPerPlacementCheck) * 2 { answers.append(try client.served()) }
            return (before, answers, http.statistics)  // while the client is connected
        }
        #expect(before.loop == 0 && before.cpu == first)
        #expect(after.contains { $0.loop == 0 }, "the connection moved before the loop looked: \(after)")
        // Once moved, the connection stays with the loop of the client's new processor, keep-alive unbroken.
        let moved = try #require(after.firstIndex { $0.loop == 1 }, "never moved: \(after)")
        #expect(after[moved...].allSatisfy { $0.loop == 1 && $0.cpu == second }, "\(after)")
        // One connection throughout: handed over, not closed and accepted again.
        #expect(statistics.openConnections == 1)
        #expect(statistics.acceptedConnections == 1)
    }

    @Test func followingThePacketsTheLoopsGrowApartByFourAndAQuarterAtMost() {
        #expect(EventLoop.mayServe(4, leastServed: 0))
        #expect(!EventLoop.mayServe(5, leastServed: 0))
        #expect(EventLoop.mayServe(14, leastServed: 8))
        #expect(!EventLoop.mayServe(15, leastServed: 8))
        #expect(EventLoop.mayServe(129, leastServed: 100))
        #expect(!EventLoop.mayServe(130, leastServed: 100))
    }

    /// Every connection's packets arriving on one processor (a network card with one queue, say): the loops share
    /// them all the same, the one of that processor taking a few more.
    @Test(.enabled(if: canBind)) func connectionsFromOneProcessorAreSharedWhenOneLoopWouldServeThemAll() throws {
        let server = try placedServer()
        defer { server.stop() }
        let port = server.port
        let loops = try onThread(boundTo: Self.allowed[0]) {
            let clients = try (0..<40).map { _ in try HTTPTestConnection(port: port) }
            return try clients.map { try $0.served().loop }  // all open at once
        }
        let counts = (0..<Self.allowed.count).map { loop in loops.filter { $0 == loop }.count }
        let least = try #require(counts.min())
        #expect(least > 0, "\(counts)")
        #expect(counts[0] == counts.max(), "the loop of the client's processor takes the most: \(counts)")
        #expect(counts[0] <= least + 5 + least / 4, "\(counts)")
    }

    @Test(.enabled(if: canBind)) func sharedLoopsAreNotBoundAndStillTakeTurns() throws {
        let server = try placedServer(placement: .shared)
        defer { server.stop() }
        #expect(server.server.boundProcessors.isEmpty)
        let port = server.port
        let loops = try onThread(boundTo: Self.allowed[0]) {
            try (0..<Self.allowed.count).map { _ in try HTTPTestConnection(port: port).served().loop }
        }
        #expect(loops == Array(0..<Self.allowed.count))  // dealt in turn, wherever the client sends from
    }

    // MARK: Helpers

    /// A loop's answer: the processor it ran on and the loop's index (from its request id, `prefix-loop-counter`).
    struct Served: Sendable, CustomStringConvertible {
        var cpu: Int
        var loop: Int
        var description: String { "loop \(loop) on \(cpu)" }
    }

    /// A server with a loop per allowed processor, answering where it ran.
    private func placedServer(placement: LoopPlacement = .perProcessor) throws -> CoreTestServer {
        try CoreTestServer(configure: {
            $0.eventLoopCount = Self.allowed.count
            $0.loopPlacement = placement
        }) { _, context in
            var headers = HTTPHeaders()
            headers.add("X-CPU", String(csystem_current_cpu()))
            headers.add("X-Request-Id-Seen", context.requestId)
            return HTTPResponse(status: .ok, contentType: "text/plain", bytes: Array("ok".utf8), headers: headers)
        }
    }

    /// Runs `body` on a new thread bound to processor `cpu`, and returns what it returned.
    private func onThread<T: Sendable>(boundTo cpu: Int, _ body: @escaping @Sendable () throws -> T) throws -> T {
        let result = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result.set(Result {
                guard csystem_bind_thread(Int32(cpu)) == 0 else { throw PlacementTestError.cannotBind(cpu) }
                return try body()
            })
            done.signal()
        }
        thread.start()
        guard done.wait(timeout: .now() + 20) == .success else { throw PlacementTestError.timedOut }
        return try result.get()
    }
}

enum PlacementTestError: Error {
    case noProcessor
    case cannotBind(Int)
    case timedOut
    case noAnswer
}

/// A value handed from one thread to another.
private final class ResultBox<T: Sendable>: @unchecked Sendable {  // @unchecked: `value` is guarded by `lock`
    private let lock = NSLock()
    private var value: Result<T, any Error>?

    func set(_ value: Result<T, any Error>) {
        lock.withLock { self.value = value }
    }

    func get() throws -> T {
        guard let value = lock.withLock({ self.value }) else { throw PlacementTestError.noAnswer }
        return try value.get()
    }
}

extension HTTPTestConnection {
    /// Asks for `/` and reads where it was answered.
    func served() throws -> LoopPlacementTests.Served {
        try request("GET", "/")
        let response = try readResponse()
        let id = response.header("X-Request-Id-Seen")?.split(separator: "-") ?? []
        guard response.status == 200, let cpu = response.header("X-CPU").flatMap({ Int($0) }), id.count == 3,
              let loop = Int(id[1], radix: 16)
        else { throw PlacementTestError.noAnswer }
        return LoopPlacementTests.Served(cpu: cpu, loop: loop)
    }
}
