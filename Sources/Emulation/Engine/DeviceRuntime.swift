/// The device-wide state of the emulation: pending timers, id counters and the seeded generator.
public struct DeviceRuntime: Sendable, Codable, Equatable {
    /// Pending timers, kept sorted by (due, seq).
    public var timers: [DeviceTimer] = []
    public var nextTimerSeq: Int64 = 1
    public var nextRunNumber: Int64 = 1
    public var nextTaskNumber: Int64 = 1
    @StoredDefault public var nextTransferNumber: Int64 = 1
    /// Where the device is, as last set (R36).
    public var location: LocationFix?
    public var random: SeededGenerator

    public init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    /// Adds a timer, keeping the order; answers its sequence number.
    @discardableResult
    mutating func schedule(_ kind: DeviceTimer.Kind, at due: VirtualInstant) -> Int64 {
        let timer = DeviceTimer(seq: nextTimerSeq, due: due, kind: kind)
        nextTimerSeq += 1
        // Binary search for the first timer that comes after this one.
        var low = 0
        var high = timers.count
        while low < high {
            let mid = (low + high) / 2
            if timers[mid].due <= due { low = mid + 1 } else { high = mid }
        }
        timers.insert(timer, at: low)
        return timer.seq
    }

    mutating func cancel(where predicate: (DeviceTimer.Kind) -> Bool) {
        timers.removeAll { predicate($0.kind) }
    }

    /// The earliest timer due at or before `instant`, removed from the queue.
    mutating func popDue(by instant: VirtualInstant) -> DeviceTimer? {
        guard let first = timers.first, first.due <= instant else { return nil }
        return timers.removeFirst()
    }
}
