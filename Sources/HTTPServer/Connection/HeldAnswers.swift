/// Answers a loop holds back until a time (``HTTPResponse/delay``), soonest first: a binary min-heap by due time,
/// ties in the order they were held.
struct HeldAnswers {
    private struct Entry {
        var due: Int64
        var order: UInt64
        var answer: OffloadedAnswer

        func isBefore(_ other: Entry) -> Bool { due != other.due ? due < other.due : order < other.order }
    }

    private var heap: [Entry] = []
    private var nextOrder: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    /// When the soonest answer is due (loop milliseconds), if any is held.
    var nextDue: Int64? { heap.first?.due }

    mutating func hold(_ answer: OffloadedAnswer, until due: Int64) {
        heap.append(Entry(due: due, order: nextOrder, answer: answer))
        nextOrder &+= 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].isBefore(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// The soonest answer if it is due at `now`, removed.
    mutating func takeDue(at now: Int64) -> OffloadedAnswer? {
        guard let first = heap.first, first.due <= now else { return nil }
        return takeFirst()
    }

    /// Every held answer, soonest first, removed (at shutdown: they go out at once).
    mutating func takeAll() -> [OffloadedAnswer] {
        var all: [OffloadedAnswer] = []
        all.reserveCapacity(heap.count)
        while !heap.isEmpty { all.append(takeFirst()) }
        return all
    }

    private mutating func takeFirst() -> OffloadedAnswer {
        let first = heap[0].answer
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].isBefore(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].isBefore(heap[smallest]) { smallest = right }
            guard smallest != parent else { return first }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
