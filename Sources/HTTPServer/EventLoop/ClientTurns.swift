import CSystem
import Glibc

/// Orders one wait's ready events so that clients take turns: each client's first ready connection, then each
/// one's second, and so on, in the kernel's order within a round. Without it, a client whose 64 connections became
/// ready together (a burst of requests answered on the loop) is served in full before a quiet client's one request
/// that the kernel listed after them: milliseconds of waiting for one cheap request (measured: a quiet tenant's
/// p99 tripled under a neighbour's flood of reads that used a tenth of a core).
///
/// A client is what ``Connection/client`` says (its credentials, or none); the loop's own wake event goes first,
/// since it carries answers that clients wait for.
struct ClientTurns {
    /// Open addressing over `slots`: a slot is used in this pass when its stamp is the pass's.
    private var slotClients: [Int]
    private var slotCounts: [Int32]
    private var slotStamps: [UInt32]
    private var stamp: UInt32 = 0
    /// Each event's round, and how many events each round holds.
    private var rounds: [Int32]
    private var roundSizes: [Int32]
    private let scratch: UnsafeMutableBufferPointer<epoll_event>

    init(capacity: Int) {
        var slots = 1
        while slots < capacity * 2 { slots <<= 1 }
        slotClients = Array(repeating: 0, count: slots)
        slotCounts = Array(repeating: 0, count: slots)
        slotStamps = Array(repeating: 0, count: slots)
        rounds = Array(repeating: 0, count: capacity)
        roundSizes = Array(repeating: 0, count: capacity + 1)
        scratch = .allocate(capacity: capacity)
    }

    /// Frees the scratch buffer (the loop calls it as it exits).
    func deallocate() { scratch.deallocate() }

    /// Reorders `events[0..<count]` by round. `client` names the client of an event, or nil for one that goes
    /// first (the wake event). Stable within a round; a pass of fewer than three events is left as it is.
    mutating func order(_ events: UnsafeMutableBufferPointer<epoll_event>, count: Int, client: (UInt64) -> Int?) {
        guard count >= 3 else { return }
        stamp &+= 1
        if stamp == 0 {  // wrapped: every slot's stamp might now look current
            for i in slotStamps.indices { slotStamps[i] = 0 }
            stamp = 1
        }
        var lastRound: Int32 = 0
        var reordered = false
        for i in 0..<count {
            let round: Int32
            if let id = client(events[i].data.u64) {
                round = 1 + claim(id)
            } else {
                round = 0
            }
            rounds[i] = round
            if round < lastRound { reordered = true }
            lastRound = max(lastRound, round)
        }
        guard reordered else { return }  // already in turn order (usually: one event per client)
        // Counting sort by round, stable.
        for r in 0...Int(lastRound) { roundSizes[r] = 0 }
        for i in 0..<count { roundSizes[Int(rounds[i])] += 1 }
        var start: Int32 = 0
        for r in 0...Int(lastRound) {
            let size = roundSizes[r]
            roundSizes[r] = start
            start += size
        }
        for i in 0..<count {
            let r = Int(rounds[i])
            scratch[Int(roundSizes[r])] = events[i]
            roundSizes[r] += 1
        }
        for i in 0..<count { events[i] = scratch[i] }
    }

    /// The number of events `id` already had in this pass (its round, from 0), counting this one.
    private mutating func claim(_ id: Int) -> Int32 {
        let mask = slotClients.count - 1
        var slot = Int(truncatingIfNeeded: (UInt(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
        while true {
            if slotStamps[slot] != stamp {
                slotStamps[slot] = stamp
                slotClients[slot] = id
                slotCounts[slot] = 1
                return 0
            }
            if slotClients[slot] == id {
                slotCounts[slot] += 1
                return slotCounts[slot] - 1
            }
            slot = (slot + 1) & mask
        }
    }
}
