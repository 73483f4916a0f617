/// The device's random generator: SplitMix64, seeded by the device's `seed`, its state stored with the device so
/// that a restarted service draws the same numbers. The core draws no randomness from anywhere else.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Codable, Equatable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number of milliseconds in `0...max` (inclusive).
    public mutating func milliseconds(upTo max: Int64) -> Int64 {
        max <= 0 ? 0 : Int64(next() % UInt64(max + 1))
    }
}
