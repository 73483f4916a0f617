import Testing
@testable import HTTPServer

/// The worker pool's queue: keys take turns, so a key with many jobs cannot starve one with few.
@Suite struct FairWorkQueueTests {
    @Test func keysTakeTurnsAndEachKeysJobsKeepTheirOrder() {
        var queue = FairWorkQueue<String>()
        for n in 1...4 { queue.append("a\(n)", key: "a") }
        queue.append("b1", key: "b")
        queue.append("b2", key: "b")
        var taken: [String] = []
        while let job = queue.next() { taken.append(job) }
        #expect(taken == ["a1", "b1", "a2", "b2", "a3", "a4"])
        #expect(queue.count == 0)
    }

    @Test func aKeyThatJoinsWaitsOneRoundAtMostBehindAFloodingKey() {
        var queue = FairWorkQueue<String>()
        for n in 1...1_000 { queue.append("a\(n)", key: "a") }
        #expect(queue.next() == "a1")
        queue.append("b1", key: "b")
        // "b" joined while "a" had work: it is next (after at most one more turn of "a").
        let following = [queue.next(), queue.next()]
        #expect(following.contains("b1"))
        #expect(queue.count == 1_000 - 2)
    }

    @Test func threeKeysShareTurnsEvenly() {
        var queue = FairWorkQueue<String>()
        for key in ["a", "b", "c"] { for n in 1...100 { queue.append("\(key)\(n)", key: key) } }
        var counts: [Character: Int] = [:]
        for _ in 0..<30 { counts[queue.next()!.first!, default: 0] += 1 }
        #expect(counts == ["a": 10, "b": 10, "c": 10])
    }
}
