/// A tiny seeded generator (SplitMix64), so that an input always splits the same way and a crash reproduces.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The seed of an input: its FNV-1a hash.
    static func seed(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `1...upper`.
    mutating func next(upTo upper: Int) -> Int { 1 + Int(next() % UInt64(upper)) }
}
