import CSystem
import Glibc
import Testing
@testable import HTTPServer

/// `ClientTurns`: one wait's ready events reordered so that clients take turns, the wake event first.
@Suite struct ClientTurnsTests {
    /// Orders events keyed `keys`, each event's client being `clients[key]` (nil: the wake event); the keys in the
    /// order they would be handled.
    private func order(_ keys: [UInt64], clients: [UInt64: Int?]) -> [UInt64] {
        var turns = ClientTurns(capacity: 256)
        defer { turns.deallocate() }
        let events = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: 256)
        defer { events.deallocate() }
        for (i, key) in keys.enumerated() {
            events[i] = epoll_event()
            events[i].data.u64 = key
        }
        turns.order(events, count: keys.count) { key in clients[key] ?? nil }
        return (0..<keys.count).map { events[$0].data.u64 }
    }

    @Test func aQuietClientListedAfterAFloodingOnesConnectionsGoesSecond() {
        // Client 1 has connections 10...15 ready, client 2 has 20, listed last by the kernel.
        let clients: [UInt64: Int?] = [10: 1, 11: 1, 12: 1, 13: 1, 14: 1, 15: 1, 20: 2]
        #expect(order([10, 11, 12, 13, 14, 15, 20], clients: clients) == [10, 20, 11, 12, 13, 14, 15])
    }

    @Test func clientsTakeRoundsInTheKernelsOrderAndTheWakeEventGoesFirst() {
        let clients: [UInt64: Int?] = [1: 7, 2: 7, 3: 7, 4: 8, 5: 8, 6: 9, 99: nil]
        #expect(order([1, 2, 3, 4, 99, 5, 6], clients: clients) == [99, 1, 4, 6, 2, 5, 3])
    }

    @Test func eventsAlreadyInTurnOrderAndShortPassesAreLeftAlone() {
        let clients: [UInt64: Int?] = [1: 1, 2: 2, 3: 3, 4: 1]
        #expect(order([1, 2, 3, 4], clients: clients) == [1, 2, 3, 4])
        #expect(order([1, 4], clients: clients) == [1, 4], "fewer than three events: not looked at")
    }

    @Test func manyPassesReuseTheTableWithoutMixingThem() {
        var turns = ClientTurns(capacity: 4)
        defer { turns.deallocate() }
        let events = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: 4)
        defer { events.deallocate() }
        // Each pass counts from nothing: client 5 twice, then client 6, every time.
        for _ in 0..<1_000 {
            for (i, key) in [UInt64(1), 2, 3].enumerated() { events[i].data.u64 = key }
            turns.order(events, count: 3) { key in key == 3 ? 6 : 5 }
            #expect(events[0].data.u64 == 1 && events[1].data.u64 == 3 && events[2].data.u64 == 2)
        }
    }
}
